#!/usr/bin/env bash
# End-to-end checks beyond the golden files: every tests/cli*.py, each
# ending with "N passed, M failed".
status=0
# the text width and the default format come from these: the tests set them
unset COLUMNS SPAA_FORMAT
for f in tests/cli*.py; do
	echo "-- $f"
	"${PYTHON:-/usr/bin/python3}" "$f" || status=1
done
exit $status
