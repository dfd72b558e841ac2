./spaa-convert tests/data/convert_small.perf | ./spaa-validate -
