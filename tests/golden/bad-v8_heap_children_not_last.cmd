./spaa-hotspots tests/data/bad/v8_heap_children_not_last.heapsnapshot
