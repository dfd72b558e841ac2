#!/usr/bin/env bash
# End-to-end checks beyond the golden files (see tests/cli.py).
exec "${PYTHON:-/usr/bin/python3}" tests/cli.py "$@"
