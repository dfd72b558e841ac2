./spaa-phases --min-phase 1500ms --label '^(A|B)$' tests/data/phases_abia.spaa
