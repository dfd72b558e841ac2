./spaa-hotspots --limit 5 tests/data/dtrace/malloc_keys.txt
