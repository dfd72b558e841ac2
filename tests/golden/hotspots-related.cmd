./spaa-hotspots tests/data/related.spaa
