./spaa-hotspots --limit 5 tests/data/spx/corpus/31_negative_values/spx-full-20261122_015413-vm-27800-1804289383.json
