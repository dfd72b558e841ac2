./spaa-validate tests/data/validate/undefined_window_stack.spaa
