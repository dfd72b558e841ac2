SPAA_MAX_DEPTH=2 ./spaa-convert --from folded tests/data/convert_small.folded
