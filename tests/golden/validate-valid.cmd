./spaa-validate tests/data/validate/valid.spaa
