./spaa-validate tests/data/validate/header_not_first.spaa
