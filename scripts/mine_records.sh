#!/bin/sh
# Mine the shipped record sets again from the released wheels on PyPI.
#
#   sh scripts/mine_records.sh                        # every release of scripts/releases.txt
#   sh scripts/mine_records.sh peft==0.21.2 ...       # only some
#
# Each wheel is downloaded (no dependencies), unpacked and mined by `tracebot records mine --library`,
# which knows each library's repository, layout (src/..., bindings/python/py_src/...), tag format and,
# for torch, the parts mined. Then a second pass over every shipped set of each library notes the
# errors only some of its releases raise (the miner reads one release at a time, so it cannot know).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-"$ROOT/.venv/bin/python"}
RELEASES=${*:-$(grep -v '^#' "$ROOT/scripts/releases.txt" | grep .)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mine-records.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

cd "$ROOT"
for release in $RELEASES; do
    name=${release%%==*}
    version=${release#*==}
    echo "== $name $version"
    out="$name-$version.jsonl.gz"
    "$ROOT/.venv/bin/tracebot" records mine --library "$release" --out "$WORK/$out"
    mv "$WORK/$out" "records/data/$out"
done
"$PYTHON" -m records.mining.versions records/data/*-*.jsonl.gz
