./spaa-hotspots tests/data/bad/v8_heap_strings_twice.heapsnapshot
