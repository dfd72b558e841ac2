./spaa-hotspots tests/data/bad/zstd_trailing_garbage.spaa.zst
