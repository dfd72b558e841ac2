./spaa-hotspots tests/data/bad/gzip_bad_crc.spaa.gz
