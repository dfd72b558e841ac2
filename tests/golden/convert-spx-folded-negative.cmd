./spaa-convert --to folded --metric ct- tests/data/spx/recursion.json
