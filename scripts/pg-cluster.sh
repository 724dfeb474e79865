#!/bin/sh
# A throw-away PostgreSQL cluster for the tests: `pg-cluster.sh start DIR` creates one in DIR (a new
# temporary directory), listening on a free loopback port, and prints its URL; `pg-cluster.sh stop DIR`
# stops it and removes DIR. Debian's postgresql package is installed when missing and we may (root
# with apt-get), as check-compose.sh does with docker-compose, so a fresh machine and CI run the same.
# The server refuses to run as root: as root it runs as the package's `postgres` user.
set -eu

find_bin() {
	for bin_dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$bin_dir/pg_ctl" ] && [ -x "$bin_dir/initdb" ]; then
			echo "$bin_dir"
			return 0
		fi
	done
	return 1
}

ensure_installed() {
	if find_bin >/dev/null; then
		return 0
	fi
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "installing Debian's postgresql for the PostgreSQL tests" >&2
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
		# The package starts a cluster of its own on port 5432: the tests use theirs, not that one.
		find_bin >/dev/null && return 0
	fi
	echo "error: PostgreSQL's server is not installed; install Debian's postgresql package" >&2
	exit 1
}

as_owner() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
	dir=$1
	ensure_installed
	bin=$(find_bin)
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ]; then
		chown postgres "$dir"
	fi
	as_owner "$bin/initdb" -D "$dir/data" -U tracebot --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 || {
		cat "$dir/initdb.log" >&2
		exit 1
	}
	port=$(free_port)
	# Durability settings off: a test cluster is thrown away, and fsync on 2 shared cores is most of its time.
	as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off \
-c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null || {
		cat "$dir/server.log" >&2
		exit 1
	}
	echo "postgresql://tracebot@127.0.0.1:$port/postgres"
}

stop() {
	dir=$1
	bin=$(find_bin) || true
	if [ -n "${bin:-}" ] && [ -f "$dir/data/postmaster.pid" ]; then
		as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
}

case "${1:-}" in
start) start "$2" ;;
stop) stop "$2" ;;
*)
	echo "usage: $0 start DIR | stop DIR" >&2
	exit 2
	;;
esac
