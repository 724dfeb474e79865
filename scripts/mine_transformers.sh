#!/bin/sh
# Mine the shipped transformers record sets again from the released wheels on PyPI.
#
#   sh scripts/mine_transformers.sh            # both versions
#   sh scripts/mine_transformers.sh 5.24.0     # only some
#
# Each wheel is downloaded (no dependencies) to a temporary directory, unpacked and mined with the
# paths of the repository (src/transformers/...) and links pinned to the release tag (v<version>).
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
    "$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: "transformers==$version" -d "$WORK/$version"
    "$PYTHON" -m zipfile -e "$WORK/$version"/transformers-"$version"-*.whl "$WORK/$version/unpacked"
    "$PYTHON" -m records.mining "$WORK/$version/unpacked" \
        --repo huggingface/transformers \
        --ref "v$version" \
        --src-prefix src/ \
        --library-version "$version" \
        --out "records/data/transformers-$version.jsonl.gz" \
        --report "$WORK/$version/report.txt"
done
"$PYTHON" -m records.mining.versions records/data/transformers-*.jsonl.gz
