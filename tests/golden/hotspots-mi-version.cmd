./spaa-hotspots --mi-version
