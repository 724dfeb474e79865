#!/bin/sh
# Mine the shipped record sets again from the released wheels on PyPI.
#
#   sh scripts/mine_records.sh                  # every library of scripts/releases.txt
#   sh scripts/mine_records.sh peft torch       # only some (every listed release of each)
#
# Each wheel is downloaded (no dependencies), unpacked and mined by `tracebot records mine --library`,
# which knows each library's repository, layout (src/..., bindings/python/py_src/...), tag format and,
# for torch, the parts mined. Then each library's releases are merged into one record per raise site
# (records/data/<library>.jsonl.gz), listing every release that raises it with its line and link.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-"$ROOT/.venv/bin/python"}
LISTED=$(grep -v '^#' "$ROOT/scripts/releases.txt" | grep .)
LIBRARIES=${*:-$(echo "$LISTED" | sed 's/==.*//' | uniq)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mine-records.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

cd "$ROOT"
for library in $LIBRARIES; do
    releases=$(echo "$LISTED" | grep "^$library==" || true)
    if [ -z "$releases" ]; then
        echo "error: $library: no release of it in scripts/releases.txt" >&2
        exit 2
    fi
    for release in $releases; do
        echo "== $release"
        "$ROOT/.venv/bin/tracebot" records mine --library "$release" --out "$WORK/$library-${release#*==}.jsonl.gz"
    done
    "$PYTHON" -m records.mining.ranges "records/data/$library.jsonl.gz" "$WORK/$library"-*.jsonl.gz
done
