./spaa-hotspots --test-compatibility tests/data/ctf/no-profile
