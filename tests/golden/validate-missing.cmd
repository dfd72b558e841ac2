./spaa-validate tests/data/no-such-file.spaa
