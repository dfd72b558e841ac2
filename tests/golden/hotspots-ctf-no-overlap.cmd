./spaa-hotspots --begin 1795633192000000000 --end 1795633192100000000 tests/data/ctf/lttng-ust
