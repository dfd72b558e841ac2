#!/usr/bin/env bash
# schemas.sh - the JSON Schemas themselves, and the test inputs against them.
#
# usage: tests/schemas.sh
#
#   1. every schemas/*.json is a valid JSON Schema (check_schema of the
#      draft it declares);
#   2. the schemas accept and reject the built-in example documents of
#      tests/validate_lami.py and tests/validate_spaa.py (--self-test), so
#      that a schema loosened by mistake fails here;
#   3. every SPAA file under tests/data/ (*.spaa, *.spaa.gz, *.spaa.zst)
#      validates against schemas/spaa-record.schema.json, except in
#      tests/data/bad/ (inputs to reject), tests/data/validate/ (one file
#      per spaa-validate rule, mostly invalid) and tests/data/lenient/ (inputs
#      read with a warning, not conforming SPAA).
#
# Prints "ok N WHAT" or "FAIL N WHAT" with the reasons, then
# "P passed, F failed"; exits 1 if anything failed.

set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
PYTHON=${PYTHON:-/usr/bin/python3}

n=0
passed=0
failed=0

# check WHAT COMMAND...: runs COMMAND, reports on it.
check() {
	local what=$1 text
	shift
	n=$((n + 1))
	if text=$("$@" 2>&1); then
		passed=$((passed + 1))
		echo "ok $n $what"
	else
		failed=$((failed + 1))
		echo "FAIL $n $what"
		printf '%s\n' "$text" | sed -n 1,40p | sed 's/^/    /'
	fi
}

check_schema() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
import jsonschema
with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
if "$schema" not in schema:
    sys.exit("no $schema: the draft must be explicit")
jsonschema.validators.validator_for(schema).check_schema(schema)
EOF
}

for f in schemas/*.json; do
	[ -f "$f" ] || continue
	check "$f is a valid schema" check_schema "$f"
done
check "validate_lami.py --self-test" "$PYTHON" tests/validate_lami.py --self-test
check "validate_spaa.py --self-test" "$PYTHON" tests/validate_spaa.py --self-test
while IFS= read -r f; do
	check "$f" "$PYTHON" tests/validate_spaa.py -q "$f"
done < <(find tests/data \( -path tests/data/bad -o -path tests/data/validate -o -path tests/data/lenient \) \
	-prune -o -type f \( -name '*.spaa' -o -name '*.spaa.gz' \
	-o -name '*.spaa.zst' \) -print | sort)

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
