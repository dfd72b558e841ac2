./spaa-hotspots --metric zm- tests/data/spx/basic.txt.gz
