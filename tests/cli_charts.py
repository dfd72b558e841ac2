#!/usr/bin/env python3
"""Time charts: spaa-phases --svg and spaa-allocs --svg.

Checks the geometry of the phases picture of a hand-computed profile
(tests/data/README-phases.md: bins, bands, phase boundaries and labels),
well-formed XML on hostile names, the "other" band past the top series,
the same bytes from the same input, and that rsvg-convert renders a
picture of the document's size that is not blank.  The allocations
picture likewise: the bands and the ranking (bars, live bars, leak
suspects) of data/allocs_frees.spaa computed by hand, the ranking alone
for a profile without samples, hostile site names, the same bytes, the
rendered colours.
"""
import json
import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from clitest import check, finish, lami, ok, run
from pictures import png_decode

PHASES = './spaa-phases'
ABIA = 'tests/data/phases_abia.spaa'
NS = '{http://www.w3.org/2000/svg}'
TMP = tempfile.mkdtemp(prefix='cli_charts.')

# the geometry of common/report/timechart.h
LEFT, RIGHT, TOP, HEIGHT = 80, 20, 96, 300


def tmp(name):
    return os.path.join(TMP, name)


def chart(args, out):
    ok([PHASES, '--svg', out] + args)
    return ET.parse(out)


def bands(tree):
    """[(bin title, [(series, x, y, width, height, fill)])] in document order."""
    out = []
    for g in tree.getroot().find(NS + 'g[@id="bins"]'):
        rects = [(int(r.get('data-s')), float(r.get('x')), float(r.get('y')),
                  float(r.get('width')), float(r.get('height')), r.get('fill'))
                 for r in g.findall(NS + 'rect')]
        out.append((g.find(NS + 'title').text, rects))
    return out


def legend(tree):
    return [g.get('data-name') for g in tree.getroot().find(NS + 'g[@id="legend"]')]


def spans(tree):
    g = tree.getroot().find(NS + 'g[@id="spans"]')
    lines = [float(l.get('x1')) for l in g.findall(NS + 'line')]
    labels = [(float(t.get('x')), t.find(NS + 'title').text) for t in g.findall(NS + 'text')]
    return lines, labels


def texts(tree):
    return {t.get('id'): t.text or '' for t in tree.getroot().iter(NS + 'text') if t.get('id')}


def close(a, b, what):
    assert abs(a - b) <= 0.0051, '%s: %r, expected %r' % (what, a, b)


@check
def phases_geometry_matches_hand_computed_bins():
    # README-phases.md: 16 bins of 500 ms from 100 s; bins 0-5 A (50
    # samples of 10 ms each), 6-9 B, 10-11 empty (idle), 12-15 25 A + 25 C.
    # The tallest bin weighs 500 ms = the plot's 300 px; A weighs 4 s in
    # all, B 2 s, C 1 s: A at the bottom of every bar, then B, then C.
    tree = chart([ABIA], tmp('abia.svg'))
    assert legend(tree) == ['A', 'B', 'C'], legend(tree)
    bw = (1200 - LEFT - RIGHT) / 16
    bottom = TOP + HEIGHT
    got = bands(tree)
    drawn = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15]
    assert len(got) == len(drawn), len(got)
    for (title, rects), b in zip(got, drawn):
        x = LEFT + b * bw
        if b < 10:
            want = [(0 if b < 6 else 1, x, TOP, bw, HEIGHT)]
        else:
            want = [(0, x, bottom - 150, bw, 150), (2, x, TOP, bw, 150)]
        assert len(rects) == len(want), (b, rects)
        for r, w in zip(rects, want):
            assert r[0] == w[0], (b, r, w)
            for i, what in ((1, 'x'), (2, 'y'), (3, 'width'), (4, 'height')):
                close(r[i], w[i], 'bin %d %s' % (b, what))
        start = 100 * 10**9 + b * 500 * 10**6
        assert '(%d to %d ns)' % (start, start + 500 * 10**6 - 1) in title, title
    assert got[10][0].split('\n')[1:] == ['weight 500 ms', 'A 250 ms (50.0 %)',
                                          'C 250 ms (50.0 %)'], got[10][0]
    # phases start at bins 0, 6, 10, 12: a boundary before each but the first
    lines, labels = spans(tree)
    for got_x, b in zip(lines, (6, 10, 12)):
        close(got_x, LEFT + b * bw, 'boundary at bin %d' % b)
    assert len(lines) == 3, lines
    assert [l[1] for l in labels] == ['1: A', '2: B', '3: idle', '4: A'], labels
    for (x, _), b in zip(labels, (0, 6, 10, 12)):
        close(x, LEFT + b * bw + 3, 'label at bin %d' % b)
    # each function's colour is the same in the legend and its bands
    fills = {s: f for _, rects in got for s, _, _, _, _, f in rects}
    keys = tree.getroot().find(NS + 'g[@id="legend"]')
    for k in keys:
        assert k.find(NS + 'rect').get('fill') == fills[int(k.get('data-s'))]
    t = texts(tree)
    assert t['what'] == "event 'cpu-clock', weight: period; bins of 500ms; 4 phases", t['what']
    assert t['note'] == '', t['note']


def hostile_profile(path, names):
    """A profile with one sample of function names[i] every 10 ms, i+1
    samples in a row each, so the i-th name weighs (i + 1) x 10 ms."""
    lines = [{'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
              'frame_order': 'leaf_to_root', 'stack_id_mode': 'local',
              'events': [{'name': 'cpu-clock', 'kind': 'software',
                          'sampling': {'mode': 'period', 'primary_metric': 'period'}}]},
             {'type': 'dso', 'id': 1, 'name': '/bin/x', 'is_kernel': False}]
    for i, n in enumerate(names):
        lines.append({'type': 'frame', 'id': i + 1, 'func': n, 'dso': 1, 'kind': 'user'})
        lines.append({'type': 'stack', 'id': 's%d' % i, 'frames': [i + 1],
                      'context': {'event': 'cpu-clock'},
                      'weights': [{'metric': 'period', 'value': (i + 1) * 10**7}]})
    t = 10**9
    for i in range(len(names)):
        for _ in range(i + 1):
            lines.append({'type': 'sample', 'timestamp': t / 1e9, 'event': 'cpu-clock',
                          'period': 10**7, 'stack_id': 's%d' % i})
            t += 10**7
    with open(path, 'w') as f:
        for line in lines:
            f.write(json.dumps(line) + '\n')


HOSTILE = ['f%02d' % i for i in range(8)] + [
    'a<b&c"d\'e', ']]>x', 'ctl\x01\x1fz', 'caf\u00e9 \u2028', 'non\uffffchar\ufffe',
    '<script>alert(1)</script>']
# as XML text: controls blank, U+FFFE and U+FFFF are U+FFFD
SHOWN = [n.replace('\x01', ' ').replace('\x1f', ' ').replace('\uffff', '\ufffd')
         .replace('\ufffe', '\ufffd') for n in HOSTILE]


@check
def hostile_names_make_well_formed_svg():
    path = tmp('hostile.spaa')
    hostile_profile(path, HOSTILE)
    tree = chart([path, '--svg-title', 'T <&> "\'', '--bins', '7'], tmp('hostile.svg'))
    assert texts(tree)['title'] == 'T <&> "\''
    # 14 functions, the i-th weighing i + 1 samples: the 10 heaviest
    # drawn, heaviest first; the 4 lightest (1 + 2 + 3 + 4 = 10 of 105
    # samples) are 'other functions'
    names = legend(tree)
    assert names == SHOWN[:3:-1] + ['other functions'], names
    assert texts(tree)['note'] == \
        "4 series beyond the top 10 drawn as 'other functions' (9.52 % of the weight)", \
        texts(tree)['note']
    # nothing is fetched from elsewhere
    assert not [k for e in tree.getroot().iter() for k in e.attrib
                if k == 'src' or k.endswith('href')]


@check
def same_input_same_bytes():
    a, b = tmp('d1.svg'), tmp('d2.svg')
    ok([PHASES, '--svg', a, ABIA])
    ok([PHASES, '--svg', b, '--format', 'text', ABIA])
    with open(a, 'rb') as f, open(b, 'rb') as g:
        assert f.read() == g.read()


@check
def usage_errors():
    for args, msg in ((['--svg-width', '500', ABIA], "need '--svg FILE'"),
                      (['--svg', '-', ABIA], "needs a file name"),
                      (['--svg', tmp('w.svg'), '--svg-width', '50', ABIA], 'from 300 to 100000')):
        rc, out, err = run([PHASES] + args)
        assert rc == 2, (args, rc)
        assert msg in err, (args, err)
    assert not os.path.exists(tmp('w.svg'))


@check
def rendered_picture_is_the_chart():
    assert shutil.which('rsvg-convert'), 'rsvg-convert is missing (tools/install-deps.sh installs librsvg2-bin)'
    svg = tmp('abia.svg')
    png = svg + '.png'
    subprocess.run(['rsvg-convert', '-o', png, svg], check=True)
    root = ET.parse(svg).getroot()
    w, h, rows = png_decode(png)
    assert (w, h) == (int(root.get('width')), int(root.get('height'))), (w, h)
    assert rows[2][w // 2][:3] == (0xf6, 0xf6, 0xf0), rows[2][w // 2]
    # the middle of bin 0 (A), bin 7 (B) and the top of bin 13 (C) have
    # their band's colour; the idle gap (bin 10) the background
    fills = {s: f for _, rects in bands(ET.parse(svg)) for s, _, _, _, _, f in rects}
    bw = (1200 - LEFT - RIGHT) / 16

    def at(b, y):
        return '#%02x%02x%02x' % rows[y][int(LEFT + (b + 0.5) * bw)][:3]
    assert at(0, TOP + 150) == fills[0], at(0, TOP + 150)
    assert at(7, TOP + 150) == fills[1]
    assert at(13, TOP + 20) == fills[2]
    assert at(13, TOP + 280) == fills[0]
    assert at(10, TOP + 20) == '#f6f6f0', at(10, TOP + 20)


ALLOCS = './spaa-allocs'
FREES = 'tests/data/allocs_frees.spaa'


def ranking(tree):
    """[(name, bar width, live width or None, mark or None)] of the ranking."""
    out = []
    for g in tree.getroot().find(NS + 'g[@id="ranking"]').findall(NS + 'g'):
        bar = g.find(NS + 'rect[@class="value"]')
        inner = g.find(NS + 'rect[@class="inner"]')
        mark = g.find('.//' + NS + 'tspan[@class="mark"]')
        out.append((g.find(NS + 'text').text, float(bar.get('width')), float(bar.get('y')),
                    None if inner is None else float(inner.get('width')),
                    None if mark is None else mark.text))
    return out


@check
def allocs_geometry_matches_hand_computed_bins():
    # allocs_frees.spaa spans 1000 to 2000 ns; at most 20 bins (--bins):
    # the round width past 1000 / 20 is 100 ns.  malloc samples: 1000 A1
    # 100 B, 1100 A1 200, 1200 A2 200, 1300 A2 200, 1500 A1 300, 1900 A1
    # 400, 1950 A2 200; frees 1400 400, 1600 200, 1700 50, 2000 100: bins
    # 0..10.  A1's site is handle_request (1000 B in all, at the bottom),
    # A2's make_buffer (600 B).  Live at the end of each bin (allocated -
    # freed so far): 100 300 500 700 300 600 400 350 350 950 850; its top,
    # 950 B, is the plot's 300 px.
    ok([ALLOCS, '--svg', tmp('frees.svg'), FREES])
    tree = ET.parse(tmp('frees.svg'))
    assert legend(tree) == ['handle_request', 'make_buffer'], legend(tree)
    bw = (1200 - LEFT - RIGHT) / 11
    bottom = TOP + HEIGHT
    live = [100, 300, 500, 700, 300, 600, 400, 350, 350, 950, 850]
    points = [tuple(map(float, p.split(','))) for p in
              tree.getroot().find(NS + 'polyline[@id="line"]').get('points').split()]
    assert len(points) == len(live), points
    for b, ((x, y), v) in enumerate(zip(points, live)):
        close(x, LEFT + (b + 0.5) * bw, 'x of live %d' % b)
        close(y, bottom - v * HEIGHT / 950, 'y of live %d' % b)
    want = {0: [(0, 100)], 1: [(0, 200)], 2: [(1, 200)], 3: [(1, 200)], 5: [(0, 300)],
            9: [(0, 400), (1, 200)]}
    got = bands(tree)
    assert len(got) == len(want), got
    for (title, rects), b in zip(got, sorted(want)):
        human = {0: '0 ns', 1: '100 ns', 2: '200 ns', 3: '300 ns', 4: '400 ns', 5: '500 ns',
                 6: '600 ns', 9: '900 ns', 10: '1.00 us'}
        assert title.startswith('from %s to %s (%d to %d ns)\nweight %d B\nlive %d B\n'
                                % (human[b], human[b + 1], 1000 + b * 100, 1099 + b * 100,
                                   sum(v for _, v in want[b]), live[b])), title
        y = bottom
        assert [r[0] for r in rects] == [s for s, _ in want[b]], (b, rects)
        for (s, x, top, w, h, _), (_, bytes_) in zip(rects, want[b]):
            close(x, LEFT + b * bw, 'x of bin %d' % b)
            close(w, bw, 'width of bin %d' % b)
            close(h, bytes_ * HEIGHT / 950, 'height in bin %d' % b)
            y -= bytes_ * HEIGHT / 950
            close(top, y, 'y in bin %d' % b)
    # the ranking: under the one legend row, rows of 18 px; bars of
    # value / 1000 B x (1200 - 530) px, live (derived: allocated - freed)
    # over them; handle_request and make_buffer hold live bytes (the
    # leaks table's rows), cleanup only frees
    r0 = bottom + 48 + 16 + 24
    assert [(n, w, y, i, m) for n, w, y, i, m in ranking(tree)] == [
        ('handle_request', 670.0, r0 + 18 - 10, 201.0, 'leak suspect'),
        ('make_buffer', 402.0, r0 + 36 - 10, 402.0, 'leak suspect'),
        ('cleanup', 0.0, r0 + 54 - 10, 0.0, None)], ranking(tree)
    assert int(tree.getroot().get('height')) == r0 + 24 + 4 * 18


@check
def allocs_without_samples_draw_the_ranking_alone():
    ok([ALLOCS, '--svg', tmp('sites.svg'), 'tests/data/allocs_sites.spaa'])
    tree = ET.parse(tmp('sites.svg'))
    assert texts(tree)['empty'] == 'no allocation samples: nothing to draw over time'
    assert not bands(tree) and not legend(tree)
    table = lami([ALLOCS, 'tests/data/allocs_sites.spaa'])
    sites = next(t['data'] for t in table['results']
                 if (t['class'].get('inherit') if isinstance(t['class'], dict) else t['class'])
                 == 'sites')
    names = [r[0] for r in sorted(sites, key=lambda r: (-r[2]['value'], r[0]))]
    assert [r[0] for r in ranking(tree)] == names, (ranking(tree), names)


def hostile_allocs(path, names):
    """One malloc sample of names[i] every 10 ns, (i + 1) x 100 bytes."""
    lines = [{'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'ebpf',
              'frame_order': 'leaf_to_root', 'stack_id_mode': 'local',
              'events': [{'name': 'malloc', 'kind': 'allocation',
                          'sampling': {'mode': 'event', 'primary_metric': 'alloc_bytes'}}]},
             {'type': 'dso', 'id': 1, 'name': '/bin/x', 'is_kernel': False},
             {'type': 'frame', 'id': 100, 'func': 'malloc', 'dso': 1, 'kind': 'user'}]
    for i, n in enumerate(names):
        lines.append({'type': 'frame', 'id': i + 1, 'func': n, 'dso': 1, 'kind': 'user'})
        lines.append({'type': 'stack', 'id': 's%d' % i, 'frames': [100, i + 1],
                      'context': {'event': 'malloc'},
                      'weights': [{'metric': 'alloc_bytes', 'value': (i + 1) * 100}]})
        lines.append({'type': 'sample', 'timestamp': 1000 + 10 * i, 'event': 'malloc',
                      'period': (i + 1) * 100, 'stack_id': 's%d' % i})
    with open(path, 'w') as f:
        for line in lines:
            f.write(json.dumps(line) + '\n')


@check
def allocs_hostile_names_and_same_bytes():
    path = tmp('hostile_allocs.spaa')
    hostile_allocs(path, HOSTILE)
    ok([ALLOCS, '--svg', tmp('ha.svg'), '--svg-title', 'T <&> "\'', path])
    tree = ET.parse(tmp('ha.svg'))
    assert texts(tree)['title'] == 'T <&> "\''
    # the heaviest site first; the 10 heaviest are bands, 4 merged
    assert [r[0] for r in ranking(tree)] == SHOWN[::-1], ranking(tree)
    assert legend(tree) == SHOWN[:3:-1] + ['other'], legend(tree)
    ok([ALLOCS, '--svg', tmp('ha2.svg'), '--svg-title', 'T <&> "\'', '--format', 'text', path])
    with open(tmp('ha.svg'), 'rb') as f, open(tmp('ha2.svg'), 'rb') as g:
        assert f.read() == g.read()
    # the narrowest picture still has bars of no negative width
    ok([ALLOCS, '--svg', tmp('narrow.svg'), '--svg-width', '300', path])
    widths = [float(r.get('width')) for r in ET.parse(tmp('narrow.svg')).getroot().iter(NS + 'rect')]
    assert widths and min(widths) >= 0, widths


@check
def allocs_rendered_picture_is_the_chart():
    svg = tmp('frees.svg')
    png = svg + '.png'
    subprocess.run(['rsvg-convert', '-o', png, svg], check=True)
    root = ET.parse(svg).getroot()
    w, h, rows = png_decode(png)
    assert (w, h) == (int(root.get('width')), int(root.get('height'))), (w, h)
    fills = {s: f for _, rects in bands(ET.parse(svg)) for s, _, _, _, _, f in rects}
    bw = (1200 - LEFT - RIGHT) / 11

    def at(x, y):
        return '#%02x%02x%02x' % rows[y][int(x)][:3]
    # bin 9: handle_request below, make_buffer on top; bin 7 empty
    assert at(LEFT + 9.5 * bw, TOP + HEIGHT - 20) == fills[0]
    assert at(LEFT + 9.5 * bw, TOP + HEIGHT - 400 * HEIGHT // 950 - 20) == fills[1]
    assert at(LEFT + 7.5 * bw, TOP + HEIGHT - 20) == '#f6f6f0'
    # the ranking: handle_request's bar past its live part, then the dark live bar
    r1 = TOP + HEIGHT + 48 + 16 + 24 + 18
    assert at(270 + 600, r1 - 9) == fills[0], at(270 + 600, r1 - 9)
    assert at(270 + 100, r1 - 4) == '#333333', at(270 + 100, r1 - 4)


shutil.rmtree(TMP, ignore_errors=True)
finish()
