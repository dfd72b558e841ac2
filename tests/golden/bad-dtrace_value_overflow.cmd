./spaa-hotspots tests/data/bad/dtrace_value_overflow.txt
