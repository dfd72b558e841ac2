./spaa-convert --from perf tests/data/convert_bad.perf
