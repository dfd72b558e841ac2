./spaa-hotspots tests/data/bad/v8_heap_no_trace.heapsnapshot
