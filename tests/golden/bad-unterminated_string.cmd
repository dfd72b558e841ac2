./spaa-hotspots tests/data/bad/unterminated_string.spaa
