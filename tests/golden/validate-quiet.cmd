./spaa-validate --quiet tests/data/validate/many_problems.spaa tests/data/validate/valid.spaa
