#!/usr/bin/env python3
"""Inputs of the bounds rows of make bench (issue 21), on stdout:

  gen_bounds.py events N   a header declaring N events, then 2,000 stack
                           records of the last one (spaa-hotspots time)
  gen_bounds.py bad N      the definitions of a small profile, then N lines
                           of findings of three shapes (spaa-validate RSS)
  gen_bounds.py blank N    a small profile with N blank lines after its
                           header (the reader's speed on blank lines)
"""
import json
import sys

HEADER = {'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
          'frame_order': 'leaf_to_root', 'stack_id_mode': 'local'}
DEFS = [
    '{"type":"dso","id":1,"name":"/usr/bin/app","is_kernel":false}',
    '{"type":"frame","id":1,"func":"main","dso":1,"kind":"user"}',
    '{"type":"frame","id":2,"func":"parse","dso":1,"kind":"user"}',
    '{"type":"frame","id":3,"func":"compute","dso":1,"kind":"user"}',
]


def event(name):
    return {'name': name, 'kind': 'software',
            'sampling': {'mode': 'period', 'primary_metric': 'period'}}


def write_lines(out, block, n, per_block):
    """n lines of block (per_block lines each), then the first lines of one more."""
    whole, rest = divmod(n, per_block)
    chunk = block * 10000
    for _ in range(whole // 10000):
        out.write(chunk)
    out.write(block * (whole % 10000))
    out.write(b''.join(block.split(b'\n')[i] + b'\n' for i in range(rest)))


def main():
    mode, n = sys.argv[1], int(sys.argv[2])
    out = sys.stdout.buffer
    if mode == 'events':
        h = dict(HEADER, events=[event('e%d' % i) for i in range(n)])
        out.write((json.dumps(h) + '\n' + '\n'.join(DEFS) + '\n').encode())
        for i in range(2000):
            out.write(('{"type":"stack","id":"s%d","frames":[%d,1],"context":{"event":"e%d"},'
                       '"weights":[{"metric":"period","value":%d}]}\n'
                       % (i, 2 + i % 2, n - 1, i + 1)).encode())
    elif mode in ('bad', 'blank'):
        h = dict(HEADER, events=[event('cpu-clock')])
        out.write((json.dumps(h) + '\n').encode())
        if mode == 'blank':
            write_lines(out, b'\n', n, 1)
        out.write(('\n'.join(DEFS) + '\n').encode())
        out.write(b'{"type":"stack","id":"a","frames":[3,1],"context":{"event":"cpu-clock"},'
                  b'"weights":[{"metric":"period","value":5}]}\n')
        if mode == 'bad':
            write_lines(out, b'{"type":"mystery","n":1}\n'
                        b'{"type":"sample","timestamp":1.5,"event":"cpu-clock"}\n'
                        b'{"type":"stack","id":"x","frames":[1],"context":{"event":"cpu-clock"},'
                        b'"weights":[{"metric":"period","value":-1}]}\n', n, 3)
    else:
        sys.exit('usage: gen_bounds.py events|bad|blank N')


main()
