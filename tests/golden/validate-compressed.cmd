./spaa-validate tests/data/basic.spaa.zst tests/data/basic.spaa.gz
