#!/usr/bin/env python3
"""Flame graphs: spaa-convert --to svg and spaa-diff --svg.

Checks that the SVG is well-formed XML whatever the names, that the
geometry of a small profile matches weights computed by hand (see
tests/data/README-flamegraph.md), that a differential graph's colours
follow the sign of hand-computed deltas, and that rsvg-convert renders
the documents to pictures of the right size that are not blank (the PNG
is decoded here with zlib alone).
"""
import colorsys
import json
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from clitest import check, finish, ok, run
from pictures import png_decode

CONV = './spaa-convert'
DIFF = './spaa-diff'
HOTSPOTS = './spaa-hotspots'
DATA = 'tests/data'
FLAME = os.path.join(DATA, 'flame.spaa')
BASE = os.path.join(DATA, 'flame_base.spaa')
TARGET = os.path.join(DATA, 'flame_target.spaa')
NS = '{http://www.w3.org/2000/svg}'
TMP = tempfile.mkdtemp(prefix='cli_flamegraph.')

# the layout constants of common/report/flamegraph.c
PAD, FRAME_H, TOP, BOTTOM = 10, 16, 72, 28


def tmp(name):
    return os.path.join(TMP, name)


def svg_of(args, out):
    """Runs a convert command writing out; returns the parsed tree."""
    ok([CONV, '--to', 'svg', '-o', out] + args)
    return ET.parse(out)


def frames(tree, view='frames'):
    """[(name, title, x, y, width, fill)] of the frames, document order."""
    out = []
    for g in tree.getroot().find(NS + 'g[@id="%s"]' % view):
        title = g.find(NS + 'title').text
        r = g.find(NS + 'rect')
        out.append((title.split('\n')[0], title, float(r.get('x')), int(r.get('y')),
                    float(r.get('width')), r.get('fill')))
    return out


def texts(tree):
    return {t.get('id'): t.text or '' for t in tree.getroot().iter(NS + 'text') if t.get('id')}


def by_name(fr):
    d = {}
    for f in fr:
        assert f[0] not in d, 'two frames named %s' % f[0]
        d[f[0]] = f
    return d


def rgb(fill):
    assert re.fullmatch(r'#[0-9a-f]{6}', fill), fill
    return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def close(a, b, what):
    # coordinates are written with two decimals
    assert abs(a - b) <= 0.0051, '%s: %r, expected %r' % (what, a, b)


@check
def well_formed_for_every_input():
    deep = tmp('deep.folded')
    with open(deep, 'w') as f:
        f.write(';'.join('f%d' % i for i in range(5000)) + ' 7\nf0;g 1\n')
    hostile = tmp('hostile.folded')
    with open(hostile, 'wb') as f:
        f.write(b'main;a<b&c"d\'e;]]>x 3\nmain;bad\xff\xfeutf8;ctl\x01\x1fz 2\n'
                b'main;sur\xed\xa0\x80;over\xc0\xaf;caf\xc3\xa9 \xe2\x80\xa8 1\n')
    inputs = [FLAME, 'tests/data/basic.spaa.zst', 'tests/data/convert_small.folded',
              'tests/data/convert_small.perf', 'tests/data/spx/basic.json',
              'tests/data/inline.spaa', 'tests/data/related.spaa',
              'tests/data/diff_cwork_hashslow.spaa.zst', deep, hostile]
    for i, path in enumerate(inputs):
        tree = svg_of([path, '--svg-title', 'T <&> "\'' + str(i)], tmp('wf%d.svg' % i))
        assert tree.getroot().tag == NS + 'svg'
        assert texts(tree)['title'] == 'T <&> "\'' + str(i)
        assert frames(tree), path
    tree = ET.parse(tmp('wf%d.svg' % (len(inputs) - 2)))
    fr = frames(tree)
    assert len(fr) == 5002, len(fr)        # all, f0..f4999 and g, each once
    assert max(f[3] for f in fr) - min(f[3] for f in fr) == 5000 * FRAME_H
    names = [f[0] for f in frames(ET.parse(tmp('wf%d.svg' % (len(inputs) - 1))))]
    for want in ('a<b&c"d\'e', ']]>x', 'bad\ufffd\ufffdutf8', 'ctl  z', 'caf\u00e9 \u2028'):
        assert want in names, (want, names)


@check
def geometry_matches_hand_computed_weights():
    # README-flamegraph.md: all 11, main 11, jitfn 3, run 3, parse 7,
    # memcpy 5, sys_read 1 (ms); siblings in name order; depth 0..3
    tree = svg_of([FLAME], tmp('flame.svg'))
    root = tree.getroot()
    assert (root.get('width'), root.get('height')) == ('1200', str(TOP + 4 * FRAME_H + BOTTOM))
    fr = frames(tree)
    assert [f[0] for f in fr] == ['all', 'main', 'jitfn', 'run', 'parse', 'memcpy', 'sys_read']
    f = by_name(fr)
    unit = 1180 / 11
    weight = {'all': 11, 'main': 11, 'jitfn': 3, 'run': 3, 'parse': 7, 'memcpy': 5, 'sys_read': 1}
    left = {'all': 0, 'main': 0, 'jitfn': 0, 'run': 0, 'parse': 3, 'memcpy': 3, 'sys_read': 10}
    depth = {'all': 0, 'main': 1, 'jitfn': 2, 'parse': 2, 'sys_read': 2, 'run': 3, 'memcpy': 3}
    parent = {'main': 'all', 'jitfn': 'main', 'parse': 'main', 'sys_read': 'main',
              'run': 'jitfn', 'memcpy': 'parse'}
    for n in weight:
        close(f[n][4], weight[n] * unit, n + ' width')
        close(f[n][2], PAD + left[n] * unit, n + ' x')
        assert f[n][3] == TOP + (3 - depth[n]) * FRAME_H, (n, f[n][3])
    for c, p in parent.items():
        assert f[c][3] == f[p][3] - FRAME_H, (c, p)
        assert f[p][2] <= f[c][2] and f[c][2] + f[c][4] <= f[p][2] + f[p][4] + 0.01, (c, p)
    assert 'total 7.00 ms (63.64 %), self 2.00 ms (18.18 %)' in f['parse'][1], f['parse'][1]
    assert f['memcpy'][1].split('\n')[1] == '/lib/libc.so.6 (library)'
    t = texts(tree)
    assert t['what'] == "event 'cpu-clock', primary metric 'period'; total 11.0 ms", t['what']
    assert t['note'] == ''


@check
def colours_by_kind_stable_per_dso():
    f = by_name(frames(ET.parse(tmp('flame.svg'))))
    # hue bands of flamegraph.h, in degrees
    bands = {'main': (0, 14), 'parse': (0, 14), 'memcpy': (48, 60), 'sys_read': (24, 38),
             'jitfn': (92, 132), 'run': (172, 200)}
    hue = {}
    for n, (lo, hi) in bands.items():
        h = colorsys.rgb_to_hls(*[c / 255 for c in rgb(f[n][5])])[0] * 360
        assert lo - 1 <= h <= hi + 1, '%s: hue %.1f not in [%d, %d]' % (n, h, lo, hi)
        hue[n] = h
    assert abs(hue['main'] - hue['parse']) < 1.5, hue    # one DSO, one hue
    again = by_name(frames(svg_of([FLAME, '--svg-title', 'other'], tmp('flame2.svg'))))
    assert all(again[n][5] == f[n][5] for n in f)


@check
def min_width_drops_and_counts():
    tree = svg_of([FLAME, '--svg-min-width', '200', '--svg-width', '1200'], tmp('minw.svg'))
    names = [f[0] for f in frames(tree)]
    assert 'sys_read' not in names and 'memcpy' in names, names   # 107.27 px < 200
    assert texts(tree)['note'] == '1 frame narrower than 200 px (9.09 %) not drawn'
    tree = svg_of([FLAME, '--svg-width', '600'], tmp('w600.svg'))
    close(by_name(frames(tree))['parse'][4], 7 * 580 / 11, 'parse width at 600 px')


@check
def event_and_metric_select_the_weight():
    tree = svg_of(['tests/data/basic.spaa', '--metric', 'samples'], tmp('samples.svg'))
    f = by_name([x for x in frames(tree) if x[0] != 'fib'])
    # basic.spaa samples: main 11, compute 7, parse 4, memcpy 3
    close(f['compute'][4], 7 * 1180 / 11, 'compute')
    assert "metric 'samples'; total 11" in texts(tree)['what']
    rc, out, err = run([CONV, '--to', 'svg', '-o', tmp('x.svg'), '--event', 'nope', FLAME])
    assert rc == 2 and "no event 'nope'" in err, (rc, err)
    assert not os.path.exists(tmp('x.svg'))


@check
def differential_colours_follow_the_delta():
    # README-flamegraph.md: baseline a 6, b 4, d;e 2; target a 9, b 1, c 2 (ms)
    out = tmp('diff.svg')
    ok([DIFF, '--svg', out, BASE, TARGET])
    tree = ET.parse(out)
    f = by_name(frames(tree))
    assert sorted(f) == ['a', 'all', 'b', 'c', 'main'], sorted(f)
    assert rgb(f['a'][5]) == (255, 60, 60)         # +3, the largest change
    assert rgb(f['b'][5]) == (60, 157, 255)        # -3
    assert rgb(f['c'][5]) == (255, 113, 113)       # +2: 220 - 160 * 2/3
    assert rgb(f['main'][5]) == (224, 224, 224)    # 12 against 12
    close(f['a'][4], 9 * 1180 / 12, 'a width (target)')
    assert 'target 9.00 ms (75.00 %), baseline 6.00 ms (50.00 %)\nraw delta +3.00 ms, normalized delta +3.00 ms (+50.0 %)' in f['a'][1], f['a'][1]
    assert 'raw delta +2.00 ms, normalized delta +2.00 ms (new)' in f['c'][1], f['c'][1]
    assert 'gone below, baseline 2.00 ms (16.67 %)' in f['main'][1], f['main'][1]
    t = texts(tree)
    assert t['note'].startswith('1 call path only in the baseline (16.67 % of it)'), t['note']
    assert 'target total 12.0 ms, baseline total 12.0 ms' in t['what'], t['what']
    # reversed: the colours swap
    ok([DIFF, '--svg', out, '--svg-title', 'rev', TARGET, BASE])
    f = by_name(frames(ET.parse(out)))
    assert rgb(f['a'][5]) == (60, 157, 255) and rgb(f['b'][5]) == (255, 60, 60)
    assert 'c' not in f and rgb(f['d'][5])[0] == 255 and rgb(f['e'][5])[0] == 255
    assert texts(ET.parse(out))['note'].startswith('1 call path only in the baseline (16.67 % of it)')


def script_states(svg, actions):
    """What the embedded script does (tests/flamegraph_script.js, node)."""
    root = ET.parse(svg).getroot()
    script = root.find(NS + 'script').text
    doc = {'width': root.get('width'), 'script': script, 'actions': actions}
    for view in ('frames', 'inverted'):
        group = root.find(NS + 'g[@id="%s"]' % view)
        if group is None:
            continue
        doc[view] = []
        for g in group:
            r = g.find(NS + 'rect')
            doc[view].append({'title': g.find(NS + 'title').text, 'x': float(r.get('x')),
                              'y': float(r.get('y')), 'width': float(r.get('width')),
                              'fill': r.get('fill'), 'text': g.find(NS + 'text').text or ''})
    doc = json.dumps(doc)
    p = subprocess.run(['node', 'tests/flamegraph_script.js'], input=doc.encode(),
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode()
    return json.loads(p.stdout)


@check
def script_zooms_searches_and_hovers():
    assert shutil.which('node'), 'node is missing (tools/install-deps.sh installs nodejs)'
    names = [f[0] for f in frames(ET.parse(tmp('flame.svg')))]
    i = {n: names.index(n) for n in names}
    zoom, search, hover, reset, key = script_states(tmp('flame.svg'), [
        ['click', i['parse']], ['search', 'mem|^sys'], ['hover', i['memcpy']],
        ['unzoom'], ['key', 'Escape']])
    f = zoom['frames']
    # parse fills the width, memcpy (5 of parse's 7) follows; callers dimmed
    close(f[i['parse']]['width'], 1180, 'zoomed parse')
    assert abs(f[i['memcpy']]['width'] - 5 / 7 * 1180) < 0.02, f[i['memcpy']]
    assert f[i['memcpy']]['x'] == 10 and f[i['memcpy']]['display'] is None
    for n in ('all', 'main'):
        assert f[i[n]]['opacity'] == '0.5' and f[i[n]]['width'] == 1180, f[i[n]]
    for n in ('jitfn', 'run', 'sys_read'):
        assert f[i[n]]['display'] == 'none', (n, f[i[n]])
    assert zoom['unzoom'] == 'inline'
    # memcpy 5 + sys_read 1 of 11, from coordinates with two decimals
    m = re.fullmatch(r'Matched: ([\d.]+) % \(2 frames\)', search['matched'])
    assert m and abs(float(m.group(1)) - 600 / 11) <= 0.01, search['matched']
    assert search['search'] == 'Reset search'
    hl = [n for n in names if search['frames'][i[n]]['fill'] == 'rgb(230,0,230)']
    assert sorted(hl) == ['memcpy', 'sys_read'], hl
    assert hover['details'].startswith('memcpy  |  /lib/libc.so.6 (library)  |  total 5.00 ms'), hover['details']
    assert reset['unzoom'] == 'none'
    close(reset['frames'][i['parse']]['x'], 10 + 3 * 1180 / 11, 'parse x after reset')
    assert key['matched'] == ' ' and key['search'] == 'Search'
    assert all(k['fill'] == f0[5] for k, f0 in zip(key['frames'], frames(ET.parse(tmp('flame.svg')))))
    # nested matches count once: fib;fib;fib is 2 of basic.spaa's 11 ms
    svg_of(['tests/data/basic.spaa'], tmp('basic.svg'))
    st, = script_states(tmp('basic.svg'), [['search', '^fib$']])
    m = re.fullmatch(r'Matched: ([\d.]+) % \(3 frames\)', st['matched'])
    assert m and abs(float(m.group(1)) - 200 / 11) <= 0.01, st['matched']


@check
def usage_errors():
    for args in (['--svg-title', 'x', FLAME], ['--to', 'svg', '--svg-width', '50', FLAME],
                 ['--to', 'svg', '--svg-min-width', '-1', FLAME], ['--from', 'svg', FLAME]):
        rc, out, err = run([CONV] + args)
        assert rc == 2 and not out, (args, rc, out, err)
    for args in (['--svg', '-'], ['--svg-width', '300'], ['--svg', tmp('d.svg'), '--svg-width', '20']):
        rc, out, err = run([DIFF] + args + [BASE, TARGET])
        assert rc == 2 and '"error-code": "usage"' in out.replace('":"', '": "'), (args, rc, out)


@check
def rendered_pictures_are_flame_graphs():
    assert shutil.which('rsvg-convert'), 'rsvg-convert is missing (tools/install-deps.sh installs librsvg2-bin)'
    for svg in (tmp('flame.svg'), tmp('diff.svg')):
        png = svg + '.png'
        subprocess.run(['rsvg-convert', '-o', png, svg], check=True)
        root = ET.parse(svg).getroot()
        w, h, rows = png_decode(png)
        assert (w, h) == (int(root.get('width')), int(root.get('height'))), (w, h)
        background = rows[2][w // 2]
        assert background[:3] == (0xf6, 0xf6, 0xf0), background
        colours, covered = set(), 0
        # the frames' band: every frame row, sampled every 3 px across
        for y in range(TOP, h - BOTTOM):
            for x in range(0, w, 3):
                p = rows[y][x]
                colours.add(p[:3])
                covered += p != background
        area = (h - BOTTOM - TOP) * len(range(0, w, 3))
        assert len(colours) >= 6, len(colours)
        assert covered > area * 0.5, (covered, area)
        # the fills drawn are in the picture: the root's and a frame's
        fr = frames(ET.parse(svg))
        for name, _, x, y, width, fill in fr[:3]:
            px = rows[y + 2][int(x + width / 2)][:3]
            assert px == rgb(fill), (svg, name, px, fill)


@check
def hotspots_draws_the_graph_and_its_inversion():
    # the same frames as spaa-convert's, one row lower (the toolbar row)
    conv = frames(svg_of([FLAME], tmp('conv.svg')))
    ok([HOTSPOTS, '--svg', tmp('hot.svg'), FLAME])
    tree = ET.parse(tmp('hot.svg'))
    hot = frames(tree)
    assert [(f[0], f[1], f[2], f[3] + FRAME_H, f[4], f[5]) for f in conv] == hot, hot
    root = tree.getroot()
    assert root.get('height') == str(TOP + FRAME_H + 4 * FRAME_H + BOTTOM)
    assert root.find(NS + 'g[@id="inverted"]').get('display') == 'none'
    # inverted (README-flamegraph.md): each leaf under the root, its
    # callers below: (depth, x ms, width ms) in name order
    want = [('all', 0, 0, 11), ('memcpy', 1, 0, 5), ('parse', 2, 0, 5), ('main', 3, 0, 5),
            ('parse', 1, 5, 2), ('main', 2, 5, 2), ('run', 1, 7, 3), ('jitfn', 2, 7, 3),
            ('main', 3, 7, 3), ('sys_read', 1, 10, 1), ('main', 2, 10, 1)]
    inv = frames(tree, 'inverted')
    assert [f[0] for f in inv] == [w[0] for w in want], inv
    unit = 1180 / 11
    for f, (name, depth, x, w) in zip(inv, want):
        assert f[3] == TOP + FRAME_H + depth * FRAME_H, (name, f[3])
        close(f[2], PAD + x * unit, name + ' x')
        close(f[4], w * unit, name + ' width')
    assert inv[1][5] == conv[5][5]      # memcpy: one colour in both views
    assert texts(tree)['invert'] == 'Inverted (callers)'
    # --tid 2: only main;parse;memcpy 1 ms and main;jitfn;run 3 ms
    ok([HOTSPOTS, '--svg', tmp('tid.svg'), '--tid', '2', FLAME])
    f = by_name(frames(ET.parse(tmp('tid.svg'))))
    assert sorted(f) == ['all', 'jitfn', 'main', 'memcpy', 'parse', 'run'], sorted(f)
    close(f['memcpy'][4], 1180 / 4, 'memcpy of tid 2')
    assert f['all'][1].endswith('total 4.00 ms (100.00 %), self 0 ns (0.00 %)'), f['all'][1]
    for args, msg in ((['--svg', tmp('n.svg'), '--net'], "not the signed nets"),
                      (['--svg-title', 'x'], "need '--svg FILE'"),
                      (['--svg', '-'], 'needs a file name')):
        rc, out, err = run([HOTSPOTS] + args + [FLAME])
        assert rc == 2 and msg in err, (args, rc, err)


@check
def script_switches_to_the_inverted_view():
    assert shutil.which('node'), 'node is missing (tools/install-deps.sh installs nodejs)'
    inv, zoom, back = script_states(tmp('hot.svg'), [['invert'], ['iclick', 6], ['invert']])
    assert inv['shown'] == ['none', None] and inv['invert'] == 'Flame graph', inv['shown']
    # run (3 of 11) zoomed in the inverted view: its caller jitfn and main
    # full width, the root dimmed, the other leaves hidden
    f = zoom['inverted']
    close(f[6]['width'], 1180, 'zoomed run')
    assert [f[i]['width'] for i in (7, 8)] == [1180, 1180], f
    assert f[0]['opacity'] == '0.5' and f[1]['display'] == 'none', f[:2]
    assert back['shown'] == [None, 'none'] and back['invert'] == 'Inverted (callers)'
    # leaving a view resets its zoom
    close(back['inverted'][6]['width'], 3 * 1180 / 11, 'run after switching back')
    close(back['frames'][0]['width'], 1180, 'root after switching back')


shutil.rmtree(TMP, ignore_errors=True)
finish()
