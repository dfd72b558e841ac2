./spaa-validate tests/data/validate/empty.spaa
