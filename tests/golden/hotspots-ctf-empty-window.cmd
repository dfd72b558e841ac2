./spaa-hotspots --begin 1795633192586309234 --end 1795633192586309300 tests/data/ctf/lttng-ust
