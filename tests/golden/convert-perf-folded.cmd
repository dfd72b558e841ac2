./spaa-convert --to folded tests/data/convert_small.perf
