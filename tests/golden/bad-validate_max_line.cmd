SPAA_MAX_LINE=10 ./spaa-validate tests/data/basic.spaa
