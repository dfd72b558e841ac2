./spaa-hotspots tests/data/bad/dtrace_sum_overflow.txt
