./spaa-hotspots --limit 5 tests/data/spx/corpus/01_tiny_default/spx-full-20261122_015405-vm-27608-1804289383.json
