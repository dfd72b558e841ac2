./spaa-validate tests/data/validate/duplicate_dso_id.spaa
