./spaa-phases --min-phase 1500ms --focus '^(A|B)$' tests/data/phases_abia.spaa
