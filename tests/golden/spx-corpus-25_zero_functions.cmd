./spaa-hotspots --limit 5 tests/data/spx/corpus/25_zero_functions/spx-full-20261122_015410-vm-27761-1804289383.json
