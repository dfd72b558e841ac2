./spaa-diff --metadata
