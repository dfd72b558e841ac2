./spaa-validate tests/data/validate/zero_primary.spaa
