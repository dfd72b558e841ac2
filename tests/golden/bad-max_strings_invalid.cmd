SPAA_MAX_STRINGS=1e9 ./spaa-hotspots tests/data/basic.spaa
