./spaa-hotspots --limit 5 tests/data/spx/corpus/15_exit_in_function/spx-full-20261122_015408-vm-27693-1804289383.json
