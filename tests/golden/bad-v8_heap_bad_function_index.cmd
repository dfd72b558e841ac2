./spaa-hotspots tests/data/bad/v8_heap_bad_function_index.heapsnapshot
