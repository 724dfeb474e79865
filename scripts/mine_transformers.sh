#!/bin/sh
# Mine the shipped transformers record sets again from the released wheels on PyPI.
#
#   sh scripts/mine_transformers.sh            # both versions
#   sh scripts/mine_transformers.sh 5.24.0     # only some
#
# Each wheel is downloaded (no dependencies), unpacked and mined by `tracebot records mine --library`,
# with the paths of the repository (src/transformers/...) and links pinned to the release tag (v<version>).
# Then a second pass over every shipped set notes the errors only some of the versions raise (the
# miner reads one release at a time, so it cannot know).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-"$ROOT/.venv/bin/python"}
VERSIONS=${*:-"5.24.0 4.57.6"}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mine-transformers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

cd "$ROOT"
for version in $VERSIONS; do
    echo "== transformers $version"
    # `records mine --library` downloads the wheel (no dependencies) and knows transformers' layout
    # (src/transformers/...) and tags (v<version>).
    "$ROOT/.venv/bin/tracebot" records mine --library "transformers==$version" \
        --out "$WORK/transformers-$version.jsonl.gz"
    mv "$WORK/transformers-$version.jsonl.gz" "records/data/transformers-$version.jsonl.gz"
done
"$PYTHON" -m records.mining.versions records/data/transformers-*.jsonl.gz
