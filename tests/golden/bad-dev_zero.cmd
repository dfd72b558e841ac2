./spaa-hotspots /dev/zero
