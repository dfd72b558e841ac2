/usr/bin/python3 tests/data/limits/gen_deep_stack.py 1000000 | ./spaa-hotspots -
