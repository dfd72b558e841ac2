./spaa-hotspots tests/data/bad/gzip_header_only.spaa.gz
