./spaa-convert --no-samples tests/data/convert_small.perf
