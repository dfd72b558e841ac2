./spaa-convert - < tests/data/convert_small.folded | ./spaa-convert --from spaa --to folded -
