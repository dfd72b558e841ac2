./spaa-validate --bogus tests/data/validate/valid.spaa
