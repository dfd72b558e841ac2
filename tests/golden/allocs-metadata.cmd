./spaa-allocs --metadata
