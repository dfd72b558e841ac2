SPAA_MAX_DEPTH=-1 ./spaa-hotspots tests/data/basic.spaa
