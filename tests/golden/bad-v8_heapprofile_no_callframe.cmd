./spaa-hotspots tests/data/bad/v8_heapprofile_no_callframe.heapprofile
