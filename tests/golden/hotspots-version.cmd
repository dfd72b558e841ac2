./spaa-hotspots --version
