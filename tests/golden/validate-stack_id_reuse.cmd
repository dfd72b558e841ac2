./spaa-validate tests/data/validate/stack_id_reuse.spaa
