./spaa-hotspots tests/data/bad/stack_id_reuse.spaa
