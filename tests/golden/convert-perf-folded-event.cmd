./spaa-convert --to=folded --event=page-faults tests/data/convert_small.perf
