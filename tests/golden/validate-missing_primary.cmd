./spaa-validate tests/data/validate/missing_primary.spaa
