./spaa-hotspots --limit 3 tests/data/spx/corpus/19_autostart_off_spans
