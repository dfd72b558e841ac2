./spaa-diff --metric live_bytes tests/data/diff_alloc_base.spaa tests/data/alloc.spaa
