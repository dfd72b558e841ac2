./spaa-validate tests/data/validate/undefined_sample_stack.spaa
