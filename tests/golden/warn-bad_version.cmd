./spaa-hotspots tests/data/lenient/bad_version.spaa
