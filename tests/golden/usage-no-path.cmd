./spaa-hotspots
