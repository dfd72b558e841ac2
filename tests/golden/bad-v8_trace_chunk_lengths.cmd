./spaa-hotspots tests/data/bad/v8_trace_chunk_lengths.json
