./spaa-hotspots tests/data/bad/pprof_drop_frames_index.pb
