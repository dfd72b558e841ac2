./spaa-hotspots tests/data/bad/not_perf_report.spaa
