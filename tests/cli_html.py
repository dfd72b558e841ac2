#!/usr/bin/env python3
"""--format html in a real browser.

Each analysis writes a page (with its picture where it draws one); one
headless Chromium, driven by chromedriver over the WebDriver protocol
(plain HTTP: urllib is enough), loads every page from a file with the
network disabled and must log no console error; a screenshot must have
the window's size and not be blank; clicks on column headers must sort
the rows by the exact values (data-v), both ways, and typing in a filter
box must hide exactly the rows that do not contain the text.  The pages
are also parsed here: nothing refers outside the file.  spaa-report's
page too: the same, each picture drawn and logging no error in its own
frame, and its tables sorting and filtering section by section.
"""
import atexit
import base64
import html.parser
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

from clitest import check, finish, ok, run
from pictures import png_decode

TMP = tempfile.mkdtemp(prefix='cli_html.')
W, H = 1200, 900


def tmp(name):
    return os.path.join(TMP, name)


PAGES = {
    'hotspots': ['./spaa-hotspots', 'tests/data/diff_cwork_baseline.spaa.zst'],
    'phases': ['./spaa-phases', '--svg', tmp('p.svg'), 'tests/data/phases_abia.spaa'],
    'allocs': ['./spaa-allocs', 'tests/data/allocs_sites.spaa'],
    'diff': ['./spaa-diff', '--fail-if', 'share+>50pp', 'tests/data/flame_base.spaa',
             'tests/data/flame_target.spaa'],
}


# spaa-report: hotspots, phases and diff, each with its picture in a frame
REPORT = ['./spaa-report', '--baseline', 'tests/data/flame_base.spaa', 'tests/data/phases_abia.spaa']


class Refs(html.parser.HTMLParser):
    """Every attribute that could load something."""
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ('src', 'href', 'xlink:href', 'action') or (k == 'rel' and v == 'stylesheet'):
                self.refs.append((tag, k, v))


def pages():
    out = {}
    for name, args in PAGES.items():
        path = tmp(name + '.html')
        with open(path, 'w') as f:
            f.write(ok(args[:1] + ['--format', 'html'] + args[1:]))
        out[name] = path
    out['report'] = tmp('report.html')
    ok(REPORT[:1] + ['-o', out['report']] + REPORT[1:])
    return out


class Browser:
    def __init__(self):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        self.port = s.getsockname()[1]
        s.close()
        self.driver = subprocess.Popen(['chromedriver', '--port=%d' % self.port],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if self.call('GET', '/status')['ready']:
                    break
            except OSError:
                time.sleep(0.1)
        caps = {'browserName': 'chrome', 'goog:loggingPrefs': {'browser': 'ALL'},
                'goog:chromeOptions': {'binary': shutil.which('chromium'), 'args': [
                    '--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
                    '--window-size=%d,%d' % (W, H),
                    # no network: every host unresolvable, every proxy a dead end
                    '--host-resolver-rules=MAP * ~NOTFOUND', '--proxy-server=127.0.0.1:9']}}
        self.sid = None
        # whatever happens next, neither the driver nor the browser outlives the test
        atexit.register(self.close)
        self.sid = self.call('POST', '/session', {'capabilities': {'alwaysMatch': caps}})['sessionId']

    def call(self, method, path, body=None):
        req = urllib.request.Request('http://127.0.0.1:%d%s' % (self.port, path), method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)['value']

    def s(self, method, path, body=None):
        return self.call(method, '/session/%s%s' % (self.sid, path), body)

    def js(self, script, *args):
        return self.s('POST', '/execute/sync', {'script': script, 'args': list(args)})

    def find(self, css):
        el = self.s('POST', '/element', {'using': 'css selector', 'value': css})
        return list(el.values())[0]

    def click(self, css):
        self.s('POST', '/element/%s/click' % self.find(css), {})

    def close(self):
        try:
            if self.sid:
                self.s('DELETE', '')
            self.sid = None
        finally:
            if self.driver.poll() is None:
                self.driver.terminate()
                self.driver.wait(timeout=30)


ROWS = '''return Array.prototype.map.call(
  document.querySelectorAll(arguments[1] + 'section[data-class="' + arguments[0] + '"] tbody tr'),
  function (r) { return [r.style.display, Array.prototype.map.call(r.cells, function (c) {
    return [c.textContent, c.getAttribute('data-v'), c.getAttribute('title')]; })]; });'''


def shown(b, cls, within=''):
    return [cells for display, cells in b.js(ROWS, cls, within) if display != 'none']


browser = None
made = {}


@check
def pages_are_self_contained():
    made.update(pages())
    for name, path in made.items():
        p = Refs()
        with open(path) as f:
            p.feed(f.read())
        assert not p.refs, (name, p.refs)


def svg_roots(page):
    """The inlined SVG documents of a page, from '<svg' to '</svg>'."""
    out, at = [], page.find('<svg')
    while at >= 0:
        end = page.index('</svg>', at) + len('</svg>')
        out.append(page[at:end])
        at = page.find('<svg', end)
    return out


@check
def pages_carry_their_picture_without_svg():
    os.environ['TMPDIR'] = TMP
    try:
        for args in (['./spaa-hotspots', 'tests/data/flame.spaa'],
                     ['./spaa-phases', 'tests/data/phases_abia.spaa'],
                     ['./spaa-allocs', 'tests/data/allocs_frees.spaa'],
                     ['./spaa-diff', 'tests/data/flame_base.spaa', 'tests/data/flame_target.spaa']):
            svg = tmp('alone.svg')
            ok(args[:1] + ['--svg', svg] + args[1:])
            with open(svg) as f:
                want = f.read()
            want = want[want.index('<svg'):].rstrip('\n')
            # without --svg: the same picture, drawn for the page alone
            assert svg_roots(ok(args[:1] + ['--format', 'html'] + args[1:])) == [want], args
            # with --svg: the user's file is drawn, and the page holds it
            os.remove(svg)
            page = ok(args[:1] + ['--format', 'html', '--svg', svg] + args[1:])
            assert svg_roots(page) == [want] and os.path.getsize(svg), args
        # a run that draws nothing: the page as asked, without a picture
        page = ok(['./spaa-hotspots', '--format', 'html', '--metric', 'zm', '--net',
                   'tests/data/spx/basic.json'])
        assert not svg_roots(page) and '<table>' in page
        text = run(['./spaa-phases', '--format', 'text', 'tests/data/basic.spaa'])
        page = run(['./spaa-phases', '--format', 'html', 'tests/data/basic.spaa'])
        assert page[0] == text[0] == 1 and not page[1] and page[2] == text[2], (page, text)
        assert not [f for f in os.listdir(TMP) if f.startswith('spaa-picture')], os.listdir(TMP)
    finally:
        del os.environ['TMPDIR']


@check
def pages_load_without_errors_and_draw():
    global browser
    assert shutil.which('chromium') and shutil.which('chromedriver'), \
        'chromium or chromedriver is missing (tools/install-deps.sh installs chromium, chromium-driver)'
    browser = Browser()
    for name, path in made.items():
        browser.s('POST', '/url', {'url': 'file://' + os.path.abspath(path)})
        logs = browser.s('POST', '/se/log', {'type': 'browser'})
        errors = [l for l in logs if l['level'] == 'SEVERE']
        assert not errors, (name, errors)
        png = tmp(name + '.png')
        with open(png, 'wb') as f:
            f.write(base64.b64decode(browser.s('GET', '/screenshot')))
        w, h, rows = png_decode(png)
        assert (w, h) == (W, browser.js('return window.innerHeight;')), (name, w, h)
        bg = rows[h - 1][w - 1]
        covered = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x] != bg)
        colours = {rows[y][x] for y in range(0, h, 8) for x in range(0, w, 8)}
        assert covered > 0.05 * (h // 4) * (w // 4) and len(colours) > 8, (name, covered, len(colours))
        assert browser.js('return document.title;') == {
            'hotspots': 'SPAA hotspots', 'phases': 'SPAA phases', 'allocs': 'SPAA allocations',
            'diff': 'SPAA diff', 'report': 'SPAA report of tests/data/phases_abia.spaa'}[name]
    # the pictures came along: the flame graph's frames, the phases' bins
    browser.s('POST', '/url', {'url': 'file://' + os.path.abspath(made['phases'])})
    assert browser.js('return document.querySelectorAll("#bins rect").length;') == 18


@check
def headers_sort_and_filters_filter():
    b = browser
    b.s('POST', '/url', {'url': 'file://' + os.path.abspath(made['hotspots'])})
    before = shown(b, 'functions')
    # column 3 is Self: a click sorts by its exact value, largest first
    b.click('section[data-class="functions"] th:nth-child(3)')
    rows = shown(b, 'functions')
    keys = [float(r[2][1]) for r in rows]
    assert keys == sorted(keys, reverse=True), keys
    assert sorted(map(str, rows)) == sorted(map(str, before))
    assert rows[0][2][2] == '%d ns' % keys[0], rows[0][2]
    b.click('section[data-class="functions"] th:nth-child(3)')
    keys = [float(r[2][1]) for r in shown(b, 'functions')]
    assert keys == sorted(keys), keys
    # a text column sorts by text
    b.click('section[data-class="functions"] th:nth-child(1)')
    names = [r[0][0] for r in shown(b, 'functions')]
    assert names == sorted(names, reverse=True), names
    # the filter keeps the rows containing the text, in any case
    b.s('POST', '/element/%s/value' % b.find('section[data-class="functions"] input.filter'),
        {'text': 'HASH'})
    rows = shown(b, 'functions')
    assert rows and all('hash' in ''.join(c[0] for c in r).lower() for r in rows), rows
    assert len(rows) == sum('hash' in ''.join(c[0] for c in cells).lower() for cells in before)




@check
def report_pictures_draw_in_their_frames():
    b = browser
    b.s('POST', '/url', {'url': 'file://' + os.path.abspath(made['report'])})
    frames = b.js('return Array.prototype.map.call(document.querySelectorAll("iframe"), '
                  'function (f) { return f.closest("section").id; });')
    assert frames == ['hotspots', 'phases', 'diff'], frames
    # what each picture draws, counted inside its frame: flame graph
    # frames (A, B, C, main, all), the phases' 18 bands
    want = {'hotspots': ('#frames g', 5), 'phases': ('#bins rect', 18), 'diff': ('#frames g', None)}
    for i, section in enumerate(frames):
        el = b.s('POST', '/elements', {'using': 'css selector', 'value': 'iframe'})[i]
        b.s('POST', '/frame', {'id': el})
        css, n = want[section]
        got = b.js('return document.querySelectorAll(arguments[0]).length;', css)
        assert got == n if n else got > 0, (section, got)
        b.s('POST', '/frame/parent', {})
    logs = b.s('POST', '/se/log', {'type': 'browser'})
    assert not [l for l in logs if l['level'] == 'SEVERE'], logs


@check
def report_tables_sort_and_filter():
    b = browser
    b.s('POST', '/url', {'url': 'file://' + os.path.abspath(made['report'])})
    within = '#hotspots '
    before = shown(b, 'functions', within)
    diff_before = shown(b, 'functions', '#diff ')
    b.click(within + 'section[data-class="functions"] th:nth-child(1)')
    names = [r[0][0] for r in shown(b, 'functions', within)]
    assert names == sorted((r[0][0] for r in before), reverse=True), names
    b.s('POST', '/element/%s/value' % b.find(within + 'section[data-class="functions"] input.filter'),
        {'text': 'MAIN'})
    rows = shown(b, 'functions', within)
    assert [r[0][0] for r in rows] == ['main'], rows
    # the other section's table of the same class is untouched
    assert shown(b, 'functions', '#diff ') == diff_before


@check
def browser_closes():
    assert browser, 'no browser was started'
    browser.close()


shutil.rmtree(TMP, ignore_errors=True)
finish()
