./spaa-phases --limit 5 tests/data/convert_cwork_dwarf.perf-script.txt.gz
