./spaa-diff tests/data/multi_event.spaa tests/data/basic.spaa
