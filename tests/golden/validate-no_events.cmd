./spaa-validate tests/data/validate/no_events.spaa
