./spaa-validate --json tests/data/validate/many_problems.spaa tests/data/validate/zero_primary.spaa
