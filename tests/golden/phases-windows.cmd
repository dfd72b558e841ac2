./spaa-phases tests/data/phases_windows.spaa
