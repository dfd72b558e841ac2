./spaa-validate tests/data/validate/unknown_dso.spaa
