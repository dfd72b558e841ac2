{ sed -n 1p tests/data/basic.spaa; head -c 100000000 /dev/zero | tr '\0' ' '; } | ./spaa-hotspots -
