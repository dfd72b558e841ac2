./spaa-hotspots tests/data/bad/v8_trace_no_profile.json
