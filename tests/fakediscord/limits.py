"""Scripted rate limits: answer the next N requests of a route with 429, as Discord does."""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass

from aiohttp import web

ANY = "*"


def bucket_hash(route: str) -> str:
    """Return a stable, Discord-looking bucket hash for a route template."""
    return hashlib.sha256(route.encode()).hexdigest()[:32]


@dataclass
class RateLimitRule:
    """Answer ``remaining`` more requests matching ``method`` and ``route`` with 429."""

    method: str
    route: str
    remaining: int
    retry_after: float
    is_global: bool = False
    hits: int = 0

    def matches(self, method: str, route: str) -> bool:
        """Return whether a request's method and route template fall under this rule."""
        return self.method in (ANY, method) and self.route in (ANY, route)


class RateLimits:
    """The active 429 rules, consumed in the order they were added."""

    def __init__(self) -> None:
        self.rules: list[RateLimitRule] = []

    def add(self, method: str, route: str, count: int, retry_after: float, *, is_global: bool) -> RateLimitRule:
        """Limit the next ``count`` matching requests and return the rule."""
        rule = RateLimitRule(method.upper(), route, count, retry_after, is_global)
        self.rules.append(rule)
        return rule

    def take(self, method: str, route: str) -> RateLimitRule | None:
        """Consume one 429 from the first matching rule, if any."""
        for rule in self.rules:
            if rule.remaining > 0 and rule.matches(method, route):
                rule.remaining -= 1
                rule.hits += 1
                return rule
        return None


def ok_headers(route: str) -> dict[str, str]:
    """Return the rate-limit headers of an ordinary answer (plenty remaining)."""
    return {
        "X-RateLimit-Bucket": bucket_hash(route),
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "Via": "1.1 google",
    }


def too_many_requests(rule: RateLimitRule, route: str) -> web.Response:
    """Build a 429 answer with Discord's body and headers."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": rule.retry_after,
        "global": rule.is_global,
        "code": 0,
    }
    headers = {
        "Retry-After": str(max(1, math.ceil(rule.retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
        "X-RateLimit-Bucket": bucket_hash(route),
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
        "Via": "1.1 google",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    headers["Content-Type"] = "application/json"
    return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
