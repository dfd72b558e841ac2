./spaa-diff - -
