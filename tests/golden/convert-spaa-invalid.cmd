./spaa-convert -o tests/out/convert-spaa-invalid.spaa tests/data/bad/missing_primary.spaa; s=$?; test -e tests/out/convert-spaa-invalid.spaa || echo "no output file"; exit $s
