./spaa-diff tests/data/diff_alloc_base.spaa tests/data/diff_alloc_target.spaa
