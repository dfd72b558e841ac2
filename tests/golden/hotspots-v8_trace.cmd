./spaa-hotspots --limit 3 tests/data/v8/node_trace_2proc.json.gz
