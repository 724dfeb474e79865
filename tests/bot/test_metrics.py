"""Metrics: counters move, rate-limit warnings are counted, registries are separate."""

from __future__ import annotations

import logging

from prometheus_client import generate_latest

from bot.metrics import Metrics


def test_counters_are_exported() -> None:
    metrics = Metrics()
    metrics.pastes.labels(status="matched").inc()
    metrics.match_latency.observe(0.002)
    metrics.records_loaded.set(3)
    text = generate_latest(metrics.registry).decode()
    assert 'tracebot_pastes_total{status="matched"} 1.0' in text
    assert "tracebot_records_loaded 3.0" in text
    assert "tracebot_match_latency_seconds_bucket" in text


def test_rate_limit_warnings_are_counted() -> None:
    metrics = Metrics()
    metrics.count_rate_limits_from("tracebot.test.http")
    logging.getLogger("tracebot.test.http").warning("We are being rate limited. %s responded with 429.", "POST")
    assert metrics.rate_limits._value.get() == 1


def test_two_metrics_objects_do_not_share_counters() -> None:
    a, b = Metrics(), Metrics()
    a.messages_seen.inc()
    assert b.messages_seen._value.get() == 0
