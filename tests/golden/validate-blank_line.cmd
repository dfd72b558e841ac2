./spaa-validate tests/data/validate/blank_line.spaa
