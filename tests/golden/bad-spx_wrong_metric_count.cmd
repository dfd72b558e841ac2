./spaa-hotspots tests/data/bad/spx_wrong_metric_count
