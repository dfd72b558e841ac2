./spaa-convert --no-samples tests/data/spx/unbalanced.txt.gz
