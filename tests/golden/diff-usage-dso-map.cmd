./spaa-diff --dso-map /usr/bin/app tests/data/basic.spaa tests/data/diff_doubled.spaa
