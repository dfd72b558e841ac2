./spaa-validate tests/data/validate/bad_enum.spaa
