#!/bin/sh
# Run Docker Compose whichever version is installed: the v2 plugin (`docker compose`) or v1
# (`docker-compose`). Usage: sh scripts/compose.sh up -d --build
set -eu
cd "$(dirname "$0")/.."
if docker compose version >/dev/null 2>&1; then
	exec docker compose "$@"
elif command -v docker-compose >/dev/null 2>&1; then
	exec docker-compose "$@"
fi
echo "error: neither 'docker compose' (v2) nor 'docker-compose' (v1) is installed" >&2
exit 1
