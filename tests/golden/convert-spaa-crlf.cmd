sed 's/$/\r/' tests/data/basic.spaa | ./spaa-convert - | cmp - tests/data/basic.spaa && echo identical
