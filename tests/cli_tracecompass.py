#!/usr/bin/env python3
"""The Trace Compass custom parser (tools/tracecompass-parser.xml).

Trace Compass itself is not run.  The definition's regular expressions
are applied to every line of the test profiles the way its
CustomTxtTrace does, with Java's own java.util.regex when a JDK is
present (tests/TcCustomParser.java, which also reads the XML with the
JDK's parser), and always with Python's re (the constructs used mean the
same in both; the two must agree).  A line must be an event exactly
when it is a sample record with an integer timestamp or the header, and
its fields must be the record's, as read here with json.  spaa-convert
--time-ns must turn every test profile into one whose samples all are
events, at the times of the input's samples converted here by hand
(decimal arithmetic on the header's unit).
"""
import gzip
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

from clitest import check, finish, ok, run

XML = 'tools/tracecompass-parser.xml'
OUT = 'tests/out/tracecompass'
CONVERT = './spaa-convert'
# CustomTraceDefinition.Tag (Trace Compass), the names its XML uses
TAGS = {'IGNORE', 'TIMESTAMP', 'EVENT_TYPE', 'MESSAGE', 'EXTRA_FIELD_NAME',
        'EXTRA_FIELD_VALUE', 'EXTRA_FIELDS', 'OTHER'}
UNIT_NS = {'seconds': Decimal(10**9), 'milliseconds': Decimal(10**6),
           'microseconds': Decimal(10**3), 'nanoseconds': Decimal(1)}


def read_text(path):
    if path.endswith('.gz'):
        return gzip.open(path, 'rb').read().decode()
    if path.endswith('.zst'):
        import subprocess
        return subprocess.run(['zstd', '-dc', path], capture_output=True,
                              check=True).stdout.decode()
    return open(path, encoding='utf-8').read()


def profiles():
    """The test profiles, as plain files under OUT (Trace Compass opens text only)."""
    os.makedirs(OUT, exist_ok=True)
    out = []
    for d in ('tests/data', 'tests/data/dir'):
        for f in sorted(os.listdir(d)):
            if not re.search(r'\.spaa(\.gz|\.zst)?$', f):
                continue
            plain = os.path.join(OUT, 'in-' + f.replace('.gz', '').replace('.zst', ''))
            if plain in out:
                continue
            with open(plain, 'w', encoding='utf-8') as w:
                w.write(read_text(os.path.join(d, f)))
            out.append(plain)
    return out


def definition():
    root = ET.parse(XML).getroot()
    return root.find('Definition')


def inputs():
    """[(compiled regex, event type, [(tag, name)])] of the root InputLines."""
    res = []
    for il in definition().findall('InputLine'):
        data = [(d.get('tag'), d.get('name')) for d in il.findall('InputData')]
        et = il.find('EventType')
        res.append((re.compile(il.find('RegEx').text), et.text if et is not None else None,
                    data))
    return res


def apply_python(paths):
    """What CustomTxtTrace makes of each line, as TcCustomParser.java prints it."""
    ins = inputs()
    out = []
    for path in paths:
        with open(path, encoding='utf-8', newline='') as f:
            lines = f.read().split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        for no, line in enumerate(lines, 1):
            line = line[:-1] if line.endswith('\r') else line
            for k, (rx, etype, data) in enumerate(ins):
                m = rx.fullmatch(line)
                if not m:
                    continue
                fields = [path, str(no), str(k)]
                typed = False
                for g, (tag, name) in enumerate(data[:rx.groups]):
                    v = m.group(g + 1)
                    if v is None or not v.strip():
                        continue
                    key = name if tag == 'OTHER' else tag
                    typed |= key == 'EVENT_TYPE'
                    fields.append('%s=%s' % (key, v.strip()))
                if not typed and etype is not None:
                    fields.append('EVENT_TYPE=' + etype)
                out.append('\t'.join(fields))
                break
    return out


def apply_java(paths):
    return ok(['java', 'tests/TcCustomParser.java', XML] + paths).splitlines()


def events(paths):
    """{(path, line): {field: value}}, by Java when there is a JDK, else by Python."""
    lines = apply_python(paths)
    if shutil.which('java'):
        java = apply_java(paths)
        assert java == lines, 'Java and Python disagree: %s' % (
            [(a, b) for a, b in zip(java, lines) if a != b][:3] or (len(java), len(lines)))
    res = {}
    for line in lines:
        f = line.split('\t')
        res[(f[0], int(f[1]))] = dict(kv.split('=', 1) for kv in f[3:])
    return res


def records(path):
    with open(path, encoding='utf-8') as f:
        return [(no, json.loads(line)) for no, line in enumerate(f, 1) if line.strip()]


def want_event(rec):
    """The event a record must give, or None."""
    if rec.get('type') == 'header':
        want = {'EVENT_TYPE': 'header', 'MESSAGE': rec.get('source_tool')}
        tr = rec.get('time_range')
        if tr and tr.get('unit') == 'nanoseconds' and isinstance(tr.get('start'), int):
            want['TIMESTAMP'] = str(tr['start'])
        return {k: v for k, v in want.items() if v is not None}
    if rec.get('type') != 'sample' or not isinstance(rec.get('timestamp'), int) \
            or isinstance(rec.get('timestamp'), bool):
        return None
    want = {'TIMESTAMP': str(rec['timestamp']), 'EVENT_TYPE': rec.get('event', 'sample')}
    for key, name in (('stack_id', 'Stack'), ('pid', 'PID'), ('tid', 'TID'), ('cpu', 'CPU')):
        if rec.get(key) is not None:
            want[name] = str(rec[key])
    return want


def compare(paths, got):
    n = 0
    for path in paths:
        for no, rec in records(path):
            want = want_event(rec)
            have = got.get((path, no))
            assert have == want, '%s:%d: got %r, want %r' % (path, no, have, want)
            n += want is not None
    return n


@check
def definition_has_trace_compass_shape():
    root = ET.parse(XML).getroot()
    assert root.tag == 'CustomTxtTraceDefinitionList', root.tag
    defs = root.findall('Definition')
    assert len(defs) == 1 and defs[0].get('name') and defs[0].get('category'), defs
    d = defs[0]
    assert d.find('TimeStampOutputFormat').text == 'Tn'
    assert [c.tag for c in d] == ['TimeStampOutputFormat', 'InputLine', 'InputLine'] + \
        ['OutputColumn'] * len(d.findall('OutputColumn')), [c.tag for c in d]
    for il in d.findall('InputLine'):
        card = il.find('Cardinality')
        assert card.get('min') == '0' and card.get('max') == '2147483647', card.attrib
        rx = re.compile(il.find('RegEx').text)
        data = il.findall('InputData')
        assert len(data) == rx.groups, (len(data), rx.groups)
        for x in data:
            assert x.get('tag') in TAGS and x.get('action') == '0', x.attrib
            if x.get('tag') == 'TIMESTAMP':
                assert x.get('format') == 'Tn', x.attrib
    for oc in d.findall('OutputColumn'):
        assert oc.get('tag') in TAGS and oc.get('name'), oc.attrib
    names = {x.get('name') if x.get('tag') == 'OTHER' else x.get('tag')
             for x in d.iter('InputData')}
    cols = {oc.get('name') if oc.get('tag') == 'OTHER' else oc.get('tag')
            for oc in d.findall('OutputColumn')}
    assert names <= cols, names - cols


@check
def exactly_samples_and_header_match_in_test_profiles():
    paths = profiles()
    n = compare(paths, events(paths))
    assert n > 100, n


@check
def converted_profiles_have_every_sample_at_its_time():
    paths = profiles()
    conv = []
    for p in paths:
        c = os.path.join(OUT, 'ns-' + os.path.basename(p)[3:])
        rc, _, err = run([CONVERT, '--time-ns', '-o', c, p])
        assert rc == 0, (p, err)
        conv.append(c)
    got = events(conv)
    compare(conv, got)
    timed = 0
    for p, c in zip(paths, conv):
        src = records(p)
        unit = UNIT_NS[next(r for _, r in src if r['type'] == 'header')
                       .get('time_range', {}).get('unit', 'seconds')]
        # the input's sample times, converted here by hand
        want = [int((Decimal(str(r['timestamp'])) * unit).to_integral_value())
                for _, r in src if r['type'] == 'sample' and 'timestamp' in r]
        have = [int(got[(c, no)]['TIMESTAMP']) for no, r in records(c)
                if r['type'] == 'sample']
        assert have == want, (p, have[:5], want[:5])
        # Trace Compass scores the first 100 lines: the header is one
        assert (c, 1) in got, c
        timed += len(want)
    assert timed > 100, timed


@check
def no_time_stamps_are_said():
    os.makedirs(OUT, exist_ok=True)
    out = os.path.join(OUT, 'ns-basic-notime.spaa')
    rc, _, err = run([CONVERT, '--time-ns', '-o', out, 'tests/data/basic.spaa'])
    assert rc == 0, err
    assert re.search(r'no sample records with time stamps', err), err
    got = events([out])
    assert list(got) == [(out, 1)] and got[(out, 1)]['EVENT_TYPE'] == 'header', got


@check
def clock_mapping_in_every_format():
    """A CTF trace's --begin/--end moved onto the profile's clock whatever the
    output (html reruns the analysis with its picture: the move must hold);
    tests/data/ctf/README.md computes the window by hand: the two samples of
    main;middle."""
    args = ['--begin', '1700000002500000000', '--end', '1700000002900000000',
            'tests/data/ctf/text']
    for fmt in ('lami', 'text', 'csv', 'html'):
        out = ok(['./spaa-hotspots', '--format', fmt] + args)
        assert 'main;middle' in out and 'main;start' not in out and \
            'main;end' not in out, (fmt, out[:300])
    # taken as they are, the same numbers miss the profile: said, not empty
    rc, out, err = run(['./spaa-hotspots', '--clock-offset', '0'] + args)
    assert rc == 1 and '"no-data"' in out and 'do not overlap' in err, (rc, out, err)


finish()
