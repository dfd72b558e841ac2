./spaa-convert --to folded tests/data/overflow.spaa
