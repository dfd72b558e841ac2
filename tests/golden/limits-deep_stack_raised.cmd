/usr/bin/python3 tests/data/limits/gen_deep_stack.py 1000000 | SPAA_MAX_DEPTH=1000000 ./spaa-hotspots --limit 3 -
