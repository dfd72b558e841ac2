./spaa-hotspots tests/data/bad/corrupt_zstd.spaa.zst
