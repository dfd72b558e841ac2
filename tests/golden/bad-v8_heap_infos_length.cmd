./spaa-hotspots tests/data/bad/v8_heap_infos_length.heapsnapshot
