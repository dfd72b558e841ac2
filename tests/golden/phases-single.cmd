./spaa-phases tests/data/phases_single.spaa
