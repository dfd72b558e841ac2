./spaa-hotspots tests/data/basic_root_to_leaf.spaa
