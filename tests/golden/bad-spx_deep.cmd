SPAA_MAX_DEPTH=3 ./spaa-hotspots tests/data/limits/spx_deep
