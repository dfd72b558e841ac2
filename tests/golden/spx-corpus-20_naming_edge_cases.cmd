./spaa-hotspots --limit 5 tests/data/spx/corpus/20_naming_edge_cases/spx-full-20261122_015409-vm-27723-1804289383.json
