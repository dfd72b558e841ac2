./spaa-convert tests/data/convert_bad.folded
