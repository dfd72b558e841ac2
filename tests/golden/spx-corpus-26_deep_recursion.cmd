./spaa-hotspots --limit 5 tests/data/spx/corpus/26_deep_recursion/spx-full-20261122_015410-vm-27767-1804289383.json
