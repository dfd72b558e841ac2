./spaa-validate tests/data/validate/missing_field.spaa
