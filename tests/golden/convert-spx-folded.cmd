./spaa-convert --to folded tests/data/spx/recursion.txt.gz
