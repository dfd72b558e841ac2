./spaa-hotspots --event page-faults tests/data/multi_event.spaa
