./spaa-hotspots tests/data/bad/inline_order.spaa
