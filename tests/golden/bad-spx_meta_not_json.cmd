./spaa-hotspots tests/data/bad/spx_meta_not_json
