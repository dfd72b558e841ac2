./spaa-hotspots --limit 5 tests/data/spx/corpus/05_closures_default/spx-full-20261122_015405-vm-27632-1804289383.json
