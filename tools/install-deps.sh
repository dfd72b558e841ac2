#!/bin/sh
# install-deps.sh - make sure the build and test dependencies are present.
#
# usage: tools/install-deps.sh [--valgrind | --bench]
#
# Run by "make" (target deps) before anything is built.  Checks for
# pkg-config, the libcjson, libzstd, zlib, libprotobuf-c and check
# pkg-config modules, protoc-c (the pprof reader's .proto is compiled at
# build time), perf (the perf.data test runs perf script),
# /usr/bin/python3 with jsonschema (the test scripts' interpreter), groff
# (the man page checks), rsvg-convert and node (the flame graph tests render
# the SVG to PNG and run its embedded script), chromium and chromedriver
# (the HTML page tests load the pages in a headless browser); with --valgrind also for
# valgrind, with --bench (make bench only) also for jq.  When all are
# there it does nothing, so it
# costs a fraction of a second.  When one is missing it installs the Debian
# packages with apt-get, as root or through sudo, without a prompt and
# without reading stdin (CI runs with neither a terminal nor stdin), then
# checks again.
#
# No JDK: tests/cli_tracecompass.py cross-checks the Trace Compass parser
# with java.util.regex where one is installed, and with Python's re
# everywhere (tests/README.md says why the 116 MB are not worth it).
#
# SPAA_NO_INSTALL=1 only reports what is missing (for systems managed by
# hand or without apt-get).

# PACKAGES and MODULES are word lists, expanded unquoted on purpose.
# shellcheck disable=SC2086

set -eu

PACKAGES="libcjson-dev libzstd-dev zlib1g-dev check pkg-config
python3-jsonschema valgrind zstd groff-base librsvg2-bin nodejs
libprotobuf-c-dev protobuf-c-compiler linux-perf chromium chromium-driver"
MODULES="libcjson libzstd zlib check libprotobuf-c"

need_valgrind=no
need_bench=no
case ${1-} in
--valgrind) need_valgrind=yes ;;
--bench) need_bench=yes; PACKAGES="$PACKAGES jq" ;;
"") ;;
*) echo "usage: tools/install-deps.sh [--valgrind | --bench]" >&2; exit 2 ;;
esac

# missing: prints what is missing, one item a line; nothing if all is there.
missing() {
	if ! command -v pkg-config >/dev/null 2>&1; then
		echo "pkg-config"
	else
		for m in $MODULES; do
			pkg-config --exists "$m" || echo "pkg-config module $m"
		done
	fi
	/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 ||
		echo "/usr/bin/python3 with jsonschema"
	command -v protoc-c >/dev/null 2>&1 || echo "protoc-c"
	command -v perf >/dev/null 2>&1 || echo "perf"
	command -v groff >/dev/null 2>&1 || echo "groff"
	command -v rsvg-convert >/dev/null 2>&1 || echo "rsvg-convert"
	command -v node >/dev/null 2>&1 || echo "node"
	command -v chromium >/dev/null 2>&1 || echo "chromium"
	command -v chromedriver >/dev/null 2>&1 || echo "chromedriver"
	if [ "$need_valgrind" = yes ]; then
		command -v valgrind >/dev/null 2>&1 || echo "valgrind"
	fi
	if [ "$need_bench" = yes ]; then
		command -v jq >/dev/null 2>&1 || echo "jq"
	fi
}

# list TEXT: the lines of TEXT as "a, b, c".
list() {
	printf '%s\n' "$1" | paste -s -d , - | sed 's/,/, /g'
}

what=$(missing)
[ -n "$what" ] || exit 0

echo "install-deps: missing: $(list "$what")" >&2
if [ "${SPAA_NO_INSTALL:-}" = 1 ]; then
	echo "install-deps: SPAA_NO_INSTALL=1, not installing; Debian packages:" \
		$PACKAGES >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: no apt-get here; install the equivalents of the" \
		"Debian packages" $PACKAGES >&2
	exit 1
fi

if [ "$(id -u)" = 0 ]; then
	as_root=
elif command -v sudo >/dev/null 2>&1; then
	# Without a terminal, fail rather than wait for a password.
	if [ -t 0 ]; then as_root=sudo; else as_root="sudo -n"; fi
else
	echo "install-deps: not root and no sudo; as root run:" \
		"apt-get install" $PACKAGES >&2
	exit 1
fi

echo "install-deps: installing" $PACKAGES >&2
$as_root env DEBIAN_FRONTEND=noninteractive apt-get -q update </dev/null
$as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -y \
	--no-install-recommends install $PACKAGES </dev/null

what=$(missing)
if [ -n "$what" ]; then
	echo "install-deps: still missing after installing: $(list "$what")" >&2
	exit 1
fi
