./spaa-hotspots tests/data/bad/truncated.spaa.gz
