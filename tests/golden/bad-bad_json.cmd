./spaa-hotspots tests/data/bad/bad_json.spaa
