./spaa-hotspots tests/data/bad/corrupt_gzip.spaa.gz
