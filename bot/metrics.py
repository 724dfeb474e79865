"""Prometheus metrics for operators: what the bot sees, answers and how fast.

One ``Metrics`` object is built at start-up and passed to whoever counts; it owns its own registry
so tests (and two bots in one process) never share counters. ``serve`` exposes it on a port.
"""

from __future__ import annotations

import logging

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

# Matching is in-process and fast; buckets resolve the 1-50 ms range the targets talk about.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Metrics:
    """Every counter tracebot exports."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.messages_seen = Counter("tracebot_messages_seen", "Messages the bot read", registry=r)
        self.pastes = Counter("tracebot_pastes", "Pastes judged by the matcher, by status", ["status"], registry=r)
        self.replies_sent = Counter("tracebot_replies_sent", "Answers posted or edited", registry=r)
        self.in_flight = Gauge("tracebot_pastes_in_flight", "Pastes being read, matched or answered now", registry=r)
        self.in_flight_peak = Gauge("tracebot_pastes_in_flight_peak", "Most pastes in flight at once", registry=r)
        self.replies_deferred = Counter("tracebot_replies_deferred", "Answers held until a cooldown lapsed", registry=r)
        self.pastes_overflowed = Counter(
            "tracebot_pastes_overflowed", "Pastes not answered because a bounded queue was full, by queue",
            ["queue"], registry=r,
        )  # fmt: skip
        self.votes = Counter("tracebot_votes", "Helpful / not helpful votes", ["vote"], registry=r)
        self.match_latency = Histogram(
            "tracebot_match_latency_seconds", "Extraction and matching time per paste", buckets=LATENCY_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.rate_limits = Counter("tracebot_discord_rate_limits", "429 answers from Discord", registry=r)
        self.records_loaded = Gauge("tracebot_records_loaded", "Records in the matching index", registry=r)

    def serve(self, port: int, address: str = "0.0.0.0") -> None:  # noqa: S104 - operators choose the port
        """Expose the metrics over HTTP on ``port``."""
        start_http_server(port, addr=address, registry=self.registry)

    def count_rate_limits_from(self, logger_name: str = "discord.http") -> None:
        """Count discord.py's rate-limit warnings (it has no event for them)."""
        logging.getLogger(logger_name).addHandler(_RateLimitCounter(self))


class _RateLimitCounter(logging.Handler):
    def __init__(self, metrics: Metrics) -> None:
        super().__init__(level=logging.DEBUG)
        self._metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        if "rate limited" in str(record.msg).lower():
            self._metrics.rate_limits.inc()
