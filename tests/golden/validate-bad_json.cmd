./spaa-validate tests/data/validate/bad_json.spaa
