./spaa-convert --from spx tests/data/convert_small.perf
