./spaa-validate tests/data/validate/exclusive_not_leaf.spaa
