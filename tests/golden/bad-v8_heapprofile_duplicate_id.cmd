./spaa-hotspots tests/data/bad/v8_heapprofile_duplicate_id.heapprofile
