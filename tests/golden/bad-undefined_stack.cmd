./spaa-hotspots tests/data/bad/undefined_stack.spaa
