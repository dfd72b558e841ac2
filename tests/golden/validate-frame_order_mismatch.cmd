./spaa-validate tests/data/validate/frame_order_mismatch.spaa
