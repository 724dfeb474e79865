"""docker-compose.yml's PostgreSQL profile: the bot services share the server and split the shards."""

from __future__ import annotations

from typing import Any

import yaml

from bot.settings import shard_plan
from tests.conftest import ROOT


def _services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return services


def test_the_postgres_profile_runs_every_shard_once_against_its_server() -> None:
    services = _services()
    bots = {name: s for name, s in services.items() if "postgres" in s.get("profiles", []) and name != "postgres"}
    assert len(bots) >= 2
    counts: set[int] = set()
    ids: list[int] = []
    for service in bots.values():
        env = service["environment"]
        assert env["TRACEBOT_DB"].startswith("postgresql://") and "@postgres:5432/" in env["TRACEBOT_DB"]
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        count = int(env["TRACEBOT_SHARD_COUNT"])
        mine = tuple(int(i) for i in env["TRACEBOT_SHARD_IDS"].split(","))
        shard_plan(count, mine)  # each service's settings are valid on their own
        counts.add(count)
        ids.extend(mine)
    assert len(counts) == 1 and sorted(ids) == list(range(counts.pop()))


def test_the_default_service_stays_on_sqlite_outside_any_profile() -> None:
    default = _services()["tracebot"]
    assert "profiles" not in default and default["environment"]["TRACEBOT_DB"] == "/data/tracebot.db"
