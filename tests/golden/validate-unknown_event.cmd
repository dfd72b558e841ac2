./spaa-validate tests/data/validate/unknown_event.spaa
