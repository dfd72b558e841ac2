./spaa-hotspots tests/data/bad/sample_undefined_stack.spaa
