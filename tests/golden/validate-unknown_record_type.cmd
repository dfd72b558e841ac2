./spaa-validate tests/data/validate/unknown_record_type.spaa
