./spaa-phases --penalty 0.5 --min-phase 1s tests/data/phases_shifted.spaa
