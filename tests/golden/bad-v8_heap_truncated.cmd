./spaa-hotspots tests/data/bad/v8_heap_truncated.heapsnapshot
