./spaa-hotspots tests/data/bad/dtrace_negative.txt
