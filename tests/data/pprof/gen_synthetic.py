#!/usr/bin/env python3
"""Writes the hand-made pprof profiles of tests/data/pprof/ and the hostile
ones of tests/data/bad/, with a protobuf encoder of its own (field numbers
from common/formats/pprof.proto), so that the expected numbers of
tests/cli_pprof.py can be worked out by hand from the lists below.

Run from the repository root: python3 tests/data/pprof/gen_synthetic.py
"""
import gzip
import os


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def vfield(num, n):
    return key(num, 0) + varint(n)


def lfield(num, data):
    return key(num, 2) + varint(len(data)) + data


def packed(num, values):
    return lfield(num, b''.join(varint(v) for v in values))


class Profile:
    """A pprof Profile: strings are interned on use."""

    def __init__(self):
        self.strings = ['']
        self.body = []      # (field number, encoded field)

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def add(self, data):
        self.body.append(data)

    def sample_type(self, typ, unit):
        self.add(lfield(1, vfield(1, self.s(typ)) + vfield(2, self.s(unit))))

    def period_type(self, typ, unit):
        self.add(lfield(11, vfield(1, self.s(typ)) + vfield(2, self.s(unit))))

    def mapping(self, id_, name, build_id=''):
        self.add(lfield(3, vfield(1, id_) + vfield(5, self.s(name)) +
                        (vfield(6, self.s(build_id)) if build_id else b'')))

    def function(self, id_, name, file=''):
        self.add(lfield(5, vfield(1, id_) + vfield(2, self.s(name)) +
                        vfield(3, self.s(name)) + vfield(4, self.s(file))))

    def location(self, id_, mapping, address, lines):
        """lines: (function id, line), the deepest inlined first."""
        self.add(lfield(4, vfield(1, id_) + (vfield(2, mapping) if mapping else b'') +
                        vfield(3, address) +
                        b''.join(lfield(4, vfield(1, f) + vfield(2, n))
                                 for f, n in lines)))

    def sample(self, locations, values, labels=()):
        """labels: (key, str) or (key, int)."""
        lab = b''
        for k, v in labels:
            lab += lfield(3, vfield(1, self.s(k)) +
                          (vfield(2, self.s(v)) if isinstance(v, str) else vfield(3, v)))
        self.add(lfield(2, packed(1, locations) + packed(2, values) + lab))

    def encode(self):
        return b''.join(self.body) + b''.join(lfield(6, s.encode()) for s in self.strings)


def base(default='samples', drop=None, keep=None):
    """The hand-made CPU profile (README-pprof.md works out its numbers)."""
    p = Profile()
    p.add(vfield(9, 1000))          # time_nanos
    p.add(vfield(10, 5000))         # duration_nanos
    p.sample_type('samples', 'count')
    p.sample_type('cpu', 'nanoseconds')
    p.period_type('cpu', 'nanoseconds')
    p.add(vfield(12, 1000000))      # period
    if default:
        p.add(vfield(14, p.s(default)))
    if drop:
        p.add(vfield(7, p.s(drop)))
    if keep:
        p.add(vfield(8, p.s(keep)))
    p.mapping(1, '/usr/bin/app', 'abc123')
    p.mapping(2, '[kernel.kallsyms]')
    p.function(1, 'main', 'app.c')
    p.function(2, 'work', 'app.c')
    p.function(3, 'inl', 'inl.h')
    p.function(4, 'kfunc')
    p.location(1, 1, 0x100, [(1, 10)])
    p.location(2, 1, 0x200, [(3, 5), (2, 20)])     # inl inlined into work
    p.location(3, 2, 0xffff0000, [(4, 0)])
    p.location(4, 0, 0x4242, [])                  # no mapping, no symbol
    p.sample([2, 1], [3, 3000], [('worker', 'a')])
    p.sample([3, 2, 1], [2, 2000], [('pid', 7), ('tid', 8)])
    p.sample([4, 1], [1, 1000])
    p.sample([1], [5, 5000])
    return p


def write(path, data, gz=False):
    with open(path, 'wb') as f:
        f.write(gzip.compress(data, mtime=0) if gz else data)


def main():
    d = 'tests/data/pprof'
    write(os.path.join(d, 'synthetic.pb'), base().encode())
    write(os.path.join(d, 'synthetic_last.pb.gz'), base(default=None).encode(), gz=True)
    write(os.path.join(d, 'synthetic_drop.pb'), base(drop='kfunc|inl').encode())
    write(os.path.join(d, 'synthetic_drop_work.pb'), base(drop='inl|work').encode())
    write(os.path.join(d, 'synthetic_keep.pb'),
          base(drop='inl|work', keep='work').encode())
    # recursion through a location with an inlined line: work calls
    # itself from the address where inl is inlined
    p = Profile()
    p.sample_type('samples', 'count')
    p.function(1, 'main')
    p.function(2, 'work')
    p.function(3, 'inl')
    p.location(1, 0, 0x100, [(1, 10)])
    p.location(2, 0, 0x200, [(3, 5), (2, 20)])
    p.sample([2, 2, 1], [4])
    p.sample([1], [1])
    write(os.path.join(d, 'synthetic_recursive.pb'), p.encode())

    b = 'tests/data/bad'
    good = base().encode()
    write(os.path.join(b, 'pprof_truncated.pb'), good[:len(good) * 2 // 3])
    # a Sample (field 2) written as a varint
    p = base()
    p.body.insert(0, vfield(2, 5))
    p.body.insert(0, lfield(1, vfield(1, p.s('x')) + vfield(2, p.s('count'))))
    write(os.path.join(b, 'pprof_wire_type.pb'), p.encode())
    p = base()
    p.function(9, 'x')
    p.body[-1] = lfield(5, vfield(1, 9) + vfield(2, 999))
    write(os.path.join(b, 'pprof_string_index.pb'), p.encode())
    # the same, with drop_frames: names are matched before frames are written
    p = base(drop='nothing')
    p.function(9, 'x')
    p.body[-1] = lfield(5, vfield(1, 9) + vfield(2, 999))
    p.location(9, 1, 0x900, [(9, 1)])
    write(os.path.join(b, 'pprof_string_index_drop.pb'), p.encode())
    # drop_frames itself a string index past the table (found by fuzz_pprof)
    p = base()
    p.add(vfield(7, 500))
    write(os.path.join(b, 'pprof_drop_frames_index.pb'), p.encode())
    p = base()
    p.sample([77], [1, 1])
    write(os.path.join(b, 'pprof_unknown_location.pb'), p.encode())
    p = base()
    p.location(5, 1, 0x300, [(42, 1)])
    write(os.path.join(b, 'pprof_unknown_function.pb'), p.encode())
    p = base()
    p.sample([1], [1, -1000])
    write(os.path.join(b, 'pprof_negative_value.pb'), p.encode())
    p = base()
    p.location(1, 1, 0x999, [(1, 1)])
    write(os.path.join(b, 'pprof_duplicate_id.pb'), p.encode())
    p = base()
    p.sample([1], [1])
    write(os.path.join(b, 'pprof_value_count.pb'), p.encode())
    write(os.path.join(b, 'pprof_bad_regex.pb'), base(drop='(').encode(), gz=True)
    p = Profile()
    p.sample_type('samples', 'count')
    write(os.path.join(b, 'pprof_no_samples.pb'), p.encode())


if __name__ == '__main__':
    main()
