./spaa-hotspots --metadata
