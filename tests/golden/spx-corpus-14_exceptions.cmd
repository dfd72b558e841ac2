./spaa-hotspots --limit 5 tests/data/spx/corpus/14_exceptions/spx-full-20261122_015408-vm-27687-1804289383.json
