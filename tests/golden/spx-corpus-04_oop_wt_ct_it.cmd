./spaa-hotspots --limit 5 tests/data/spx/corpus/04_oop_wt_ct_it/spx-full-20261122_015405-vm-27626-1804289383.json
