SPAA_MAX_LINE=100 ./spaa-hotspots tests/data/basic.spaa
