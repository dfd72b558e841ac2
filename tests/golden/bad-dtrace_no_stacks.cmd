./spaa-hotspots tests/data/bad/dtrace_no_stacks.txt
