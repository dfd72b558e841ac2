./spaa-convert --to perf tests/data/convert_small.perf
