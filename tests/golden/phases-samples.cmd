./spaa-phases tests/data/samples.spaa
