./spaa-validate tests/data/validate/bad_weight.spaa
