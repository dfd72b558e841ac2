SPAA_MAX_DEPTH=2 ./spaa-convert --from perf tests/data/convert_small.perf
