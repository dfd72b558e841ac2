./spaa-validate tests/data/validate/many_problems.spaa
