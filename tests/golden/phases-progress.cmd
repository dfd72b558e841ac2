./spaa-phases --output-progress tests/data/phases_single.spaa
