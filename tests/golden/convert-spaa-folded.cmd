./spaa-convert --to folded tests/data/basic.spaa
