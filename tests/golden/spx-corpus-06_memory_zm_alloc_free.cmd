./spaa-hotspots --limit 5 tests/data/spx/corpus/06_memory_zm_alloc_free/spx-full-20261122_015405-vm-27638-1804289383.json
