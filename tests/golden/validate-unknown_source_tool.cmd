./spaa-validate tests/data/validate/unknown_source_tool.spaa
