./spaa-diff --event page-faults tests/data/multi_event.spaa tests/data/basic.spaa
