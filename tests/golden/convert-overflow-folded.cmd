./spaa-convert --to folded tests/data/limits/overflow.spaa
