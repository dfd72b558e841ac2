./spaa-validate tests/data/validate/unknown_context_key.spaa
