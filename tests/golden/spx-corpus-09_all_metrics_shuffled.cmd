./spaa-hotspots --limit 5 tests/data/spx/corpus/09_all_metrics_shuffled/spx-full-20261122_015406-vm-27656-1804289383.json
