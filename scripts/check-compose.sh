#!/bin/sh
# Validate docker-compose.yml offline with Debian's docker-compose (no Docker engine needed):
# `docker-compose config -q` exits 1 on an unknown option. Installs the package when it is missing
# and we may (root with apt-get), so a fresh machine and CI run the same check.
set -eu
cd "$(dirname "$0")/.."
if ! command -v docker-compose >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "installing Debian's docker-compose to validate docker-compose.yml" >&2
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
	else
		echo "error: docker-compose is not installed; install Debian's docker-compose package" >&2
		exit 1
	fi
fi
# The compose file reads .env; validate against the example so a missing .env is not an error here.
if [ ! -f .env ]; then
	cp .env.example .env.compose-check
	trap 'rm -f .env.compose-check' EXIT
	sed 's/^env_file: \.env$/env_file: .env.compose-check/; s/    env_file: \.env$/    env_file: .env.compose-check/' docker-compose.yml > docker-compose.check.yml
	trap 'rm -f .env.compose-check docker-compose.check.yml' EXIT
	docker-compose -f docker-compose.check.yml config -q
	docker-compose -f docker-compose.check.yml --profile postgres config -q
else
	docker-compose -f docker-compose.yml config -q
	docker-compose -f docker-compose.yml --profile postgres config -q
fi
echo "docker-compose.yml: valid"
