SPAA_MAX_STRINGS=8 ./spaa-hotspots tests/data/basic.spaa
