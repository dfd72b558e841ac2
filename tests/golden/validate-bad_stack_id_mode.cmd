./spaa-validate tests/data/validate/bad_stack_id_mode.spaa
