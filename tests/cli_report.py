#!/usr/bin/env python3
"""spaa-report: one page of every analysis that applies, run in process.

The summary against hand-computed shares (data/basic.spaa) and against
what the programs themselves print (LAMI: a second path through the same
analyses, in their own processes); each table of the page against the
program's --format html table, cut to --rows; each picture, framed,
against the program's --svg document byte for byte; sections left out
with the reason; hostile names escaped; the same bytes twice; the page
written with no other program on PATH (nothing is spawned); usage and
input errors.  cli_html.py loads the page in Chromium.
"""
import html.parser
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish, lami, ok, run

TMP = tempfile.mkdtemp(prefix='cli_report.')
# the pictures' temporary files go here, to be counted
os.environ['TMPDIR'] = TMP
DIFF_BASE = 'tests/data/diff_cwork_baseline.spaa.zst'
DIFF_TARGET = 'tests/data/diff_cwork_hashslow.spaa.zst'


def tmp(name):
    return os.path.join(TMP, name)


class Page(html.parser.HTMLParser):
    """The summary lines, the sections, their tables and framed pictures."""
    def __init__(self, text):
        super().__init__()
        self.summary, self.sections, self.frames, self.tags = [], [], {}, []
        self.tables = {}        # (section, class) -> [[(text, data-v)]]
        self.more = {}          # (section, class) -> "the first N of M rows"
        self.section = self.cls = None
        self.li = self.td = self.p = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == 'section' and a.get('class') == 'analysis':
            self.section = a['id']
            self.sections.append(a['id'])
        elif tag == 'section' and a.get('class') == 'results':
            self.cls = a['data-class']
            self.tables[(self.section, self.cls)] = []
        elif tag == 'iframe':
            self.frames[self.section] = a['srcdoc']
        elif tag == 'li':
            self.li = ''
        elif tag == 'tr' and self.cls and self.td is None:
            self.row = []
        elif tag == 'td':
            self.td = ['', a.get('data-v')]
        elif tag == 'p' and a.get('class') == 'more':
            self.p = ''

    def handle_endtag(self, tag):
        if tag == 'li':
            self.summary.append(self.li)
            self.li = None
        elif tag == 'td':
            self.row.append(tuple(self.td))
            self.td = None
        elif tag == 'tr' and self.cls and getattr(self, 'row', None):
            self.tables[(self.section, self.cls)].append(self.row)
            self.row = None
        elif tag == 'p' and self.p is not None:
            self.more[(self.section, self.cls)] = self.p
            self.p = None

    def handle_data(self, data):
        if self.li is not None:
            self.li += data
        if self.td is not None:
            self.td[0] += data
        if self.p is not None:
            self.p += data


def report(args, name='page.html'):
    path = tmp(name)
    ok(['./spaa-report', '-o', path] + args)
    with open(path, encoding='utf-8') as f:
        return f.read()


def pct(v):
    return '%.1f %%' % (round(v * 1000) / 10)


def rows(doc, cls):
    def name(t):
        return t['class']['inherit'] if isinstance(t['class'], dict) else t['class']
    return next((t['data'] for t in doc['results'] if name(t) == cls), [])


def value(cell):
    return cell['value'] if isinstance(cell, dict) else cell


@check
def summary_by_hand():
    # basic.spaa: self periods compute 5, memcpy 3, fib 2, parse 1 of 11 (ms)
    p = Page(report(['tests/data/basic.spaa']))
    assert p.summary[0] == ('Hotspots: top 5 functions by self weight: compute (45.5 %), '
                            'memcpy (27.3 %), fib (18.2 %), parse (9.1 %), main (0.0 %)'), p.summary
    # no samples: no time to see phases in; cpu-clock only: no allocations
    assert p.summary[1].startswith('Phases: not in this report (') and 'time' in p.summary[1]
    assert p.summary[2].startswith('Allocations: not in this report (') and \
        'no allocation' in p.summary[2], p.summary
    assert len(p.summary) == 3 and p.sections == ['hotspots'], (p.summary, p.sections)


@check
def summary_agrees_with_the_programs():
    cases = [['tests/data/phases_abia.spaa'], ['tests/data/allocs_frees.spaa'],
             ['--baseline', DIFF_BASE, DIFF_TARGET]]
    for args in cases:
        profile = args[-1]
        p = Page(report(args))
        funcs = rows(lami(['./spaa-hotspots', profile]), 'functions')[:5]
        want = ['Hotspots: top %d functions by self weight: %s' % (len(funcs), ', '.join(
            '%s (%s)' % (r[0], pct(value(r[3]))) for r in funcs))]
        rc, out, _ = run(['./spaa-phases', '--format', 'json', profile])
        if rc == 0:
            n = len(rows(json.loads(out), 'phases'))
            want.append('Phases: %d phase%s' % (n, '' if n == 1 else 's'))
        rc, out, _ = run(['./spaa-allocs', '--format', 'json', profile])
        if rc == 0:
            n = len(rows(json.loads(out), 'leaks'))
            want.append('Allocations: %d leak suspect%s' % (n, '' if n == 1 else 's'))
        if args[0] == '--baseline':
            d = rows(lami(['./spaa-diff', DIFF_BASE, DIFF_TARGET]), 'functions')
            cols = lami(['./spaa-diff', '--metadata'])['table-classes']['functions']
            sd = [c['title'] for c in cols['column-descriptions']].index('Share delta')
            best = max(d, key=lambda r: value(r[sd]))
            want.append('Against the baseline: biggest regression +%.1f pp in %s'
                        % (value(best[sd]) * 100, best[0]))
        got = [s for s in p.summary if 'not in this report' not in s]
        assert got == want, (args, got, want)
        assert len(p.sections) == len(want), (p.sections, want)


@check
def tables_are_the_programs_first_rows():
    p = Page(report(['--rows', '4', '--baseline', DIFF_BASE, DIFF_TARGET]))
    for section, prog in (('hotspots', ['./spaa-hotspots', DIFF_TARGET]),
                          ('diff', ['./spaa-diff', DIFF_BASE, DIFF_TARGET])):
        whole = Page('<section class="analysis" id="%s">' % section +
                     ok([prog[0], '--format', 'html'] + prog[1:]))
        mine = {k: v for k, v in p.tables.items() if k[0] == section}
        assert mine.keys() == whole.tables.keys(), (mine.keys(), whole.tables.keys())
        for k, table in whole.tables.items():
            assert mine[k] == table[:4], (k, mine[k], table[:4])
            if len(table) > 4:
                assert p.more[k] == 'the first 4 of %d rows' % len(table), p.more.get(k)
            else:
                assert k not in p.more, k


def framed_svg(srcdoc):
    """The SVG document inside a frame's srcdoc (already unescaped once)."""
    return srcdoc[srcdoc.index('<svg'):]


@check
def pictures_are_the_programs_pictures():
    p = Page(report(['--baseline', 'tests/data/flame_base.spaa', 'tests/data/phases_abia.spaa']))
    progs = {'hotspots': ['./spaa-hotspots'], 'phases': ['./spaa-phases'],
             'diff': ['./spaa-diff', 'tests/data/flame_base.spaa']}
    assert sorted(p.frames) == sorted(progs), sorted(p.frames)
    for section, prog in progs.items():
        svg = tmp(section + '.svg')
        ok(prog + ['--svg', svg, 'tests/data/phases_abia.spaa'])
        with open(svg, encoding='utf-8') as f:
            want = f.read()
        assert framed_svg(p.frames[section]) == want[want.index('<svg'):], section
    # a memory profile: the allocations picture too
    p = Page(report(['tests/data/allocs_frees.spaa']))
    assert sorted(p.frames) == ['allocs', 'hotspots', 'phases'], sorted(p.frames)
    ok(['./spaa-allocs', '--svg', tmp('allocs.svg'), 'tests/data/allocs_frees.spaa'])
    with open(tmp('allocs.svg'), encoding='utf-8') as f:
        want = f.read()
    assert framed_svg(p.frames['allocs']) == want[want.index('<svg'):]


@check
def hostile_names_stay_text():
    hostile = tmp('hostile.folded')
    with open(hostile, 'wb') as f:
        f.write(b'main;a<b&c"d\'e</li><script>x</script> 3\nmain;]]>x 2\n'
                b'main;bad\xff\xfeutf8;ctl\x01z 1\n')
    p = Page(report(['--title', '<b>T</b> & "x"', hostile]))
    assert any('a<b&c"d\'e</li><script>x</script>' in s for s in p.summary), p.summary
    assert p.tags.count('script') == 1, p.tags.count('script')
    assert p.tags.count('li') == len(p.summary) == 3, p.summary
    page = report(['--title', '<b>T</b> & "x"', hostile], 'hostile.html')
    assert '<title>&lt;b&gt;T&lt;/b&gt; &amp; &quot;x&quot;</title>' in page, page[:400]
    names = [r[0][0] for r in p.tables[('hotspots', 'functions')]]
    for want in ('a<b&c"d\'e</li><script>x</script>', ']]>x', 'ctl z', 'bad\ufffd\ufffdutf8'):
        assert want in names, (want, names)


@check
def same_input_same_bytes():
    args = ['--baseline', DIFF_BASE, DIFF_TARGET]
    assert report(args, 'a.html') == report(args, 'b.html')


@check
def nothing_is_spawned():
    # spaa-report alone, with no other program anywhere on PATH
    lonely = tmp('bin')
    os.mkdir(lonely)
    shutil.copy('./spaa-report', lonely)
    out = tmp('lonely.html')
    p = subprocess.run([os.path.join(lonely, 'spaa-report'), '-o', out, '--baseline',
                        os.path.abspath(DIFF_BASE), os.path.abspath(DIFF_TARGET)],
                       env={'PATH': '/nonexistent', 'TMPDIR': TMP}, cwd=lonely,
                       stdin=subprocess.DEVNULL, capture_output=True)
    assert p.returncode == 0, p.stderr
    assert Page(open(out, encoding='utf-8').read()).sections == ['hotspots', 'diff']


@check
def errors():
    rc, out, err = run(['./spaa-report', 'tests/data/basic.spaa'])
    assert rc == 2 and "'-o FILE' is required" in err, (rc, err)
    rc, out, err = run(['./spaa-report', '-o', tmp('x.html'), 'tests/data/basic.spaa',
                        'tests/data/basic.spaa'])
    assert rc == 2 and 'expected one profile path, got 2' in err, (rc, err)
    rc, out, err = run(['./spaa-report', '--bogus'])
    assert rc == 2 and "unknown option '--bogus'" in err, (rc, err)
    for args, named in ((['tests/data/nonexistent.spaa'], 'tests/data/nonexistent.spaa'),
                        (['--baseline', 'tests/data/bad/empty.spaa', 'tests/data/basic.spaa'],
                         'tests/data/bad/empty.spaa')):
        rc, out, err = run(['./spaa-report', '-o', tmp('fail.html')] + args)
        assert rc == 1 and named in err and err.count('\n') == 1, (rc, err)
        assert not out and not os.path.exists(tmp('fail.html'))
    # standard output, and no temporary file left behind
    page = ok(['./spaa-report', '-o', '-', 'tests/data/basic.spaa'])
    assert page.startswith('<!DOCTYPE html>') and page.endswith('</html>\n')
    assert not [f for f in os.listdir(TMP) if f.startswith('spaa-report')], os.listdir(TMP)
    help = ok(['./spaa-report', '--help'])
    assert help.startswith('usage: spaa-report [OPTIONS] -o FILE [--baseline BASELINE] PROFILE')


shutil.rmtree(TMP, ignore_errors=True)
finish()
