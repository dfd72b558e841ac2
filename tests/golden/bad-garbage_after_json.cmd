./spaa-hotspots tests/data/bad/garbage_after_json.spaa
