./spaa-hotspots tests/data/bad/spx_no_enabled_metrics
