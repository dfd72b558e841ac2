./spaa-convert --to folded --metric samples tests/data/convert_small.perf
