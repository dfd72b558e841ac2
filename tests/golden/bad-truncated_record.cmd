./spaa-hotspots tests/data/bad/truncated_record.spaa
