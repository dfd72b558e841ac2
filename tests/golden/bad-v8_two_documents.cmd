./spaa-hotspots tests/data/bad/v8_two_documents.cpuprofile
