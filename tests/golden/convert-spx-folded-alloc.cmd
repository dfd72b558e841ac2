./spaa-convert --to folded --event spx-alloc tests/data/spx/recursion.json
