./spaa-phases tests/data/phases_shifted.spaa
