./spaa-hotspots --frobnicate tests/data/basic.spaa
