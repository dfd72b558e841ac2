./spaa-hotspots tests/data/bad/dtrace_bad_frequency.txt
