./spaa-hotspots --limit 5 tests/data/convert_small.perf
