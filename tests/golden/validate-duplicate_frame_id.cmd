./spaa-validate tests/data/validate/duplicate_frame_id.spaa
