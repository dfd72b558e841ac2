./spaa-validate tests/data/validate/unknown_frame.spaa
