./spaa-hotspots tests/data/bad/spx_metrics_not_array
