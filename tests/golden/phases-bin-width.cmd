./spaa-phases --bin-width 250ms --limit 3 tests/data/phases_shifted.spaa
