./spaa-validate tests/data/validate/duplicate_window_id.spaa
