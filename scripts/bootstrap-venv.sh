#!/bin/sh
# Create the virtual environment. Debian's python3 ships without venv/ensurepip; when that is the
# case and we may use apt-get (root), install python3-venv first rather than failing obscurely.
set -eu
PYTHON="$1"
VENV="$2"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
	echo "error: $PYTHON not found; install Python 3.11 or newer" >&2
	exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
	echo "error: tracebot needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2
	exit 1
fi
if "$PYTHON" -m venv "$VENV" 2>/dev/null; then
	exit 0
fi
rm -rf "$VENV"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "python3 cannot create a venv here; installing Debian's python3-venv" >&2
	apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
	"$PYTHON" -m venv "$VENV"
	exit 0
fi
echo "error: '$PYTHON -m venv' failed; install your distribution's python3-venv package" >&2
exit 1
