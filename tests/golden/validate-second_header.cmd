./spaa-validate tests/data/validate/second_header.spaa
