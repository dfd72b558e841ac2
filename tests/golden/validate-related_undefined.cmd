./spaa-validate tests/data/validate/related_undefined.spaa
