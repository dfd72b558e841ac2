./spaa-hotspots /proc/self/mem
