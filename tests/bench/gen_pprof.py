#!/usr/bin/env python3
"""Writes a large pprof CPU profile for make bench: gen_pprof.py N OUT.pb.gz

N samples (each its own Sample message, as Go writes one per stack and
label set) over 5000 locations in 2000 functions, stacks 8 to 40 deep,
with a label on every other sample; gzip-compressed as Go writes it.
Uses the encoder of tests/data/pprof/gen_synthetic.py.
"""
import gzip
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'data', 'pprof'))
from gen_synthetic import Profile, vfield  # noqa: E402


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(42)
    p = Profile()
    p.add(vfield(9, 1700000000000000000))
    p.add(vfield(10, 60000000000))
    p.sample_type('samples', 'count')
    p.sample_type('cpu', 'nanoseconds')
    p.period_type('cpu', 'nanoseconds')
    p.add(vfield(12, 10000000))
    p.mapping(1, '/usr/local/bin/server', 'feedface')
    for f in range(1, 2001):
        p.function(f, 'pkg%d.(*Type%d).Method%d' % (f % 37, f % 101, f), 'src/pkg%d/file%d.go' % (f % 37, f % 53))
    for loc in range(1, 5001):
        lines = [(rng.randint(1, 2000), rng.randint(1, 900))]
        if loc % 4 == 0:
            lines.insert(0, (rng.randint(1, 2000), rng.randint(1, 900)))
        p.location(loc, 1, 0x400000 + 16 * loc, lines)
    roots = [rng.randint(1, 5000) for _ in range(30)]
    for i in range(n):
        depth = rng.randint(8, 40)
        stack = [rng.randint(1, 5000) for _ in range(depth - 1)] + [rng.choice(roots)]
        c = rng.randint(1, 5)
        p.sample(stack, [c, c * 10000000], [('worker', 'w%d' % (i % 8))] if i % 2 else ())
    with gzip.open(out + '.tmp', 'wb', compresslevel=6) as f:
        f.write(p.encode())
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()
