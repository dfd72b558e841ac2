./spaa-phases --begin 1795633192586316584 --end 1795633192586317436 tests/data/ctf/lttng-ust
