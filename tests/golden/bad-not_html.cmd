./spaa-hotspots tests/data/bad/not_html.spaa
