./spaa-convert tests/data/dir
