#!/usr/bin/python3
"""validate_spaa.py - check SPAA files against schemas/spaa-record.schema.json.

usage: validate_spaa.py [-q] [--max-errors N] FILE...
       validate_spaa.py --self-test

FILE may be plain, gzip or zstd (recognised by magic bytes; zstd needs the
zstd program), or - for standard input.  Every line is parsed as strict JSON
(no NaN/Infinity, no duplicate keys, valid UTF-8) and validated against the
record schema, with "integer" meaning an integer literal (1.0 is not one).
On top of the schema: the header must be on line 1 and appear only once.
A CR before the LF is dropped and blank lines are skipped, as the reference
parser does.  References between records (frame -> dso, stack -> frame,
primary metrics, frame order) are spaa-validate's job, not this script's.

Errors are printed as FILE:LINE: MESSAGE; each valid file gets a
"FILE: ok (N records)" line unless -q.  Exit status: 0 if every file is
valid, 1 otherwise, 2 on usage errors.

--self-test checks the schema against built-in valid and invalid records
(run by tests/schemas.sh), so that loosening the schema by mistake fails.
"""

import argparse
import gzip
import json
import math
import os
import subprocess
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "schemas", "spaa-record.schema.json")


def strict_validator_class(cls):
    """cls with "integer" meaning a JSON integer literal, as the C readers
    and Trace Compass see it (jsonschema also accepts 1.0 by default)."""
    checker = cls.TYPE_CHECKER.redefine(
        "integer",
        lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(cls, type_checker=checker)


def _object_without_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError("duplicate key %r" % key)
        obj[key] = value
    return obj


def _reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number %s overflows a double" % text)
    return value


def loads_strict(text):
    """json.loads that rejects what RFC 8259 parsers and our C reader reject
    but Python accepts: NaN/Infinity, duplicate keys, overflowing numbers."""
    return json.loads(text, object_pairs_hook=_object_without_duplicates,
                      parse_constant=_reject_constant,
                      parse_float=_finite_float)


def load_validator():
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return strict_validator_class(cls)(schema)


def error_path(error):
    path = ""
    for part in error.absolute_path:
        path += "[%d]" % part if isinstance(part, int) else ".%s" % part
    return path.lstrip(".") or "record"


def schema_errors(validator, record):
    """Messages for record, most specific first, one per failing location."""
    errors = sorted(validator.iter_errors(record),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return ["%s: %s" % (error_path(e), e.message) for e in errors]


def read_lines(path):
    """Yields (lineno, bytes without the line ending) of a plain, gzip or
    zstd file ("-" = stdin)."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:4] == b"\x28\xb5\x2f\xfd":
        # --memory: a window up to zstd's maximum (a file of zstd --long=31)
        zstd = subprocess.run(["zstd", "-dcq", "--memory=2048MB"], input=data,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if zstd.returncode:
            raise OSError("zstd: " + zstd.stderr.decode(errors="replace")
                          .strip())
        data = zstd.stdout
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for i, line in enumerate(lines, 1):
        yield i, line[:-1] if line.endswith(b"\r") else line


def check_records(validator, numbered_lines):
    """Returns (number of records, [(lineno, message)]) for an iterable of
    (lineno, bytes) lines."""
    problems = []
    records = 0
    header_line = None
    for lineno, raw in numbered_lines:
        if not raw.strip():
            continue
        try:
            record = loads_strict(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            problems.append((lineno, "not UTF-8: %s" % e.reason))
            continue
        except ValueError as e:
            problems.append((lineno, "not JSON: %s" % e))
            continue
        records += 1
        if not isinstance(record, dict):
            problems.append((lineno, "record is not a JSON object"))
            continue
        for message in schema_errors(validator, record):
            problems.append((lineno, message))
        if record.get("type") == "header":
            if header_line is not None:
                problems.append((lineno, "second header (the first is on "
                                 "line %d)" % header_line))
            elif lineno != 1:
                problems.append((lineno, "the header must be on line 1"))
            header_line = header_line or lineno
        elif header_line is None and records == 1:
            problems.append((lineno, "the first record must be the header"))
    if records == 0:
        problems.append((0, "no records (an empty file)"))
    elif header_line is None:
        problems.append((0, "no header record"))
    return records, problems


def validate_file(validator, path, max_errors, quiet):
    name = "<stdin>" if path == "-" else path
    try:
        records, problems = check_records(validator, read_lines(path))
    except (OSError, EOFError) as e:
        print("%s: cannot read: %s" % (name, e))
        return False
    for lineno, message in problems[:max_errors]:
        print("%s:%d: %s" % (name, lineno, message) if lineno
              else "%s: %s" % (name, message))
    if len(problems) > max_errors:
        print("%s: ... and %d more errors"
              % (name, len(problems) - max_errors))
    if not problems and not quiet:
        print("%s: ok (%d records)" % (name, records))
    return not problems


# ---- self-test -----------------------------------------------------------

HEADER = {"type": "header", "format": "spaa", "version": "1.0",
          "source_tool": "perf", "frame_order": "leaf_to_root",
          "stack_id_mode": "content_addressable",
          "events": [{"name": "cycles", "kind": "hardware",
                      "sampling": {"mode": "period",
                                   "primary_metric": "period"}}],
          "time_range": {"start": 1.5, "end": 2.5, "unit": "seconds"}}
DSO = {"type": "dso", "id": 1, "name": "/usr/bin/x", "is_kernel": False,
       "build_id": "abcd1234"}
FRAME = {"type": "frame", "id": 7, "func": "main", "dso": 1, "kind": "user",
         "ip": "0x401234", "inlined": False, "inline_depth": 0}
THREAD = {"type": "thread", "pid": 10, "tid": 11, "comm": "x"}
STACK = {"type": "stack", "id": "0xdeadbeef", "frames": [7],
         "stack_type": "unified",
         "context": {"event": "cycles", "pid": 10, "tid": 11, "cpu": 0,
                     "x_vendor": {"anything": [1, 2]}},
         "weights": [{"metric": "period", "value": 1000, "unit": "events"}],
         "exclusive": {"frame": 7,
                       "weights": [{"metric": "period", "value": 1000}]},
         "related_stacks": ["0xbbb", 42]}
SAMPLE = {"type": "sample", "timestamp": 1.75, "pid": 10, "tid": 11,
          "cpu": 0, "event": "cycles", "period": 100, "stack_id": "0xdeadbeef"}
WINDOW = {"type": "window", "id": "w1", "start": 1.5, "end": 2.0,
          "unit": "seconds",
          "by_stack": [{"stack_id": "0xdeadbeef",
                        "weights": [{"metric": "period", "value": 9}]}]}


DELETE = object()


def with_(record, path, value):
    """A deep copy of record with the key at path (a tuple) set to value,
    or deleted when value is DELETE."""
    record = json.loads(json.dumps(record))
    node = record
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return record


VALID_RECORDS = [
    ("header", HEADER),
    ("header without optional fields",
     with_(with_(HEADER, ("time_range",), DELETE), ("source",),
           {"tool": "dtrace"})),
    ("header with unknown keys", with_(HEADER, ("x_extra",), {"a": 1})),
    ("frequency event",
     with_(HEADER, ("events", 0, "sampling"),
           {"mode": "frequency", "primary_metric": "samples",
            "frequency_hz": 99.5})),
    ("allocation event",
     with_(HEADER, ("events", 0),
           {"name": "malloc", "kind": "allocation",
            "sampling": {"mode": "event", "primary_metric": "alloc_bytes"},
            "allocation_tracking": {"tracks_frees": True}})),
    ("dso", DSO),
    ("frame", FRAME),
    ("frame without kind", with_(FRAME, ("kind",), DELETE)),
    ("thread", THREAD),
    ("stack", STACK),
    ("stack with a numeric id", with_(STACK, ("id",), 1234567890123)),
    ("stack without exclusive", with_(STACK, ("exclusive",), DELETE)),
    ("sample", SAMPLE),
    ("sample with only the required fields",
     {"type": "sample", "timestamp": 3, "stack_id": 5}),
    ("window", WINDOW),
    ("window with only start and end",
     {"type": "window", "start": 1, "end": 2.5}),
    ("time range in nanoseconds, abbreviated",
     with_(HEADER, ("time_range",), {"start": 1, "end": 2, "unit": "ns"})),
]

# (name, record, a substring of the expected error)
INVALID_RECORDS = [
    ("no type", with_(DSO, ("type",), DELETE), "'type' is a required"),
    ("unknown type", with_(DSO, ("type",), "symbol"), "type: 'symbol'"),
    ("header: bad frame_order",
     with_(HEADER, ("frame_order",), "leaf-to-root"), "frame_order:"),
    ("header: bad stack_id_mode", with_(HEADER, ("stack_id_mode",), "global"),
     "stack_id_mode:"),
    ("header: no stack_id_mode", with_(HEADER, ("stack_id_mode",), DELETE),
     "'stack_id_mode' is a required"),
    ("header: frequency 0",
     with_(HEADER, ("events", 0, "sampling", "frequency_hz"), 0),
     "less than or equal to the minimum"),
    ("header: format not spaa", with_(HEADER, ("format",), "pprof"),
     "format:"),
    ("header: version 2.0", with_(HEADER, ("version",), "2.0"), "version:"),
    ("header: no events", with_(HEADER, ("events",), []),
     "events: [] is too short"),
    ("header: events missing", with_(HEADER, ("events",), DELETE),
     "'events' is a required"),
    ("header: bad event kind", with_(HEADER, ("events", 0, "kind"), "cpu"),
     "events[0].kind:"),
    ("header: bad sampling mode",
     with_(HEADER, ("events", 0, "sampling", "mode"), "rate"),
     "events[0].sampling.mode:"),
    ("header: no primary metric",
     with_(HEADER, ("events", 0, "sampling", "primary_metric"), DELETE),
     "'primary_metric' is a required"),
    ("header: bad time unit",
     with_(HEADER, ("time_range", "unit"), "fortnights"), "time_range.unit:"),
    ("header: string time", with_(HEADER, ("time_range", "start"), "1.5"),
     "time_range.start:"),
    ("dso: no name", with_(DSO, ("name",), DELETE), "'name' is a required"),
    ("dso: id 1.0", with_(DSO, ("id",), 1.0),
     "id: 1.0 is not of type 'integer'"),
    ("dso: uppercase build_id", with_(DSO, ("build_id",), "ABCD"),
     "build_id:"),
    ("dso: is_kernel as string", with_(DSO, ("is_kernel",), "true"),
     "is_kernel:"),
    ("frame: no dso", with_(FRAME, ("dso",), DELETE), "'dso' is a required"),
    ("frame: no func", with_(FRAME, ("func",), DELETE),
     "'func' is a required"),
    ("frame: bad kind", with_(FRAME, ("kind",), "inline"), "kind: 'inline'"),
    ("frame: negative id", with_(FRAME, ("id",), -1), "id: -1"),
    ("thread: no tid", with_(THREAD, ("tid",), DELETE), "'tid' is a required"),
    ("stack: bad stack_type", with_(STACK, ("stack_type",), "mixed"),
     "stack_type:"),
    ("stack: float id", with_(STACK, ("id",), 1.5), "id: 1.5"),
    ("stack: no weights", with_(STACK, ("weights",), []),
     "weights: [] is too short"),
    ("stack: weight value as string",
     with_(STACK, ("weights", 0, "value"), "1000"),
     "weights[0].value:"),
    ("stack: float weight", with_(STACK, ("weights", 0, "value"), 1.5),
     "1.5 is not of type 'integer'"),
    ("stack: negative weight", with_(STACK, ("weights", 0, "value"), -1),
     "-1 is less than the minimum"),
    ("stack: weight of 2^64", with_(STACK, ("weights", 0, "value"), 2 ** 64),
     "is greater than the maximum"),
    ("stack: no frames", with_(STACK, ("frames",), []), "is too short"),
    ("stack: weight without metric",
     with_(STACK, ("weights", 0, "metric"), DELETE), "'metric' is a required"),
    ("stack: no context", with_(STACK, ("context",), DELETE),
     "'context' is a required"),
    ("stack: context without event",
     with_(STACK, ("context", "event"), DELETE), "'event' is a required"),
    ("stack: frame id as string", with_(STACK, ("frames",), ["7"]),
     "frames[0]:"),
    ("stack: exclusive without frame",
     with_(STACK, ("exclusive", "frame"), DELETE),
     "exclusive: 'frame' is a required"),
    ("sample: no stack_id", with_(SAMPLE, ("stack_id",), DELETE),
     "'stack_id' is a required"),
    ("sample: no timestamp", with_(SAMPLE, ("timestamp",), DELETE),
     "'timestamp' is a required"),
    ("window: no start", with_(WINDOW, ("start",), DELETE),
     "'start' is a required"),
    ("window: weight without value",
     with_(WINDOW, ("by_stack", 0, "weights", 0, "value"), DELETE),
     "'value' is a required"),
]


def ndjson(*lines):
    """A file of lines: records are dumped as JSON, strings kept as is."""
    return "".join((line if isinstance(line, str) else json.dumps(line))
                   + "\n" for line in lines)


# (name, file text, expected to be valid)
FILES = [
    ("header then records", ndjson(HEADER, DSO, FRAME, STACK), True),
    ("CRLF and a blank line",
     ndjson(HEADER).replace("\n", "\r\n\r\n") + json.dumps(DSO) + "\r\n",
     True),
    ("header not first", ndjson(DSO, HEADER), False),
    ("no header", ndjson(DSO), False),
    ("two headers", ndjson(HEADER, HEADER), False),
    ("blank first line", ndjson("", HEADER), False),
    ("empty file", "", False),
    ("duplicate key",
     ndjson(HEADER, '{"type":"dso","id":1,"id":2,"name":"x"}'), False),
    ("NaN",
     ndjson(HEADER, '{"type":"sample","timestamp":NaN,"stack_id":1}'), False),
    ("not JSON", ndjson(HEADER, '{"type":"dso",'), False),
    ("not an object", ndjson(HEADER, "[1,2]"), False),
    ("bad UTF-8",
     ndjson(HEADER).encode() + b'{"type":"dso","id":1,"name":"\xff"}\n',
     False),
]


def self_test():
    validator = load_validator()
    failures = 0
    for name, record in VALID_RECORDS:
        errors = schema_errors(validator, record)
        if errors:
            failures += 1
            print("FAIL valid record rejected: %s: %s" % (name, errors[0]))
    for name, record, expected in INVALID_RECORDS:
        errors = schema_errors(validator, record)
        if not any(expected in e for e in errors):
            failures += 1
            print("FAIL invalid record %s: expected an error with %r, got %s"
                  % (name, expected, errors or "none"))
    for name, text, valid in FILES:
        data = text if isinstance(text, bytes) else text.encode()
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        numbered = ((i, l[:-1] if l.endswith(b"\r") else l)
                    for i, l in enumerate(lines, 1))
        _, problems = check_records(validator, numbered)
        if bool(problems) == valid:
            failures += 1
            print("FAIL file %s: expected %s, got %s" % (
                name, "valid" if valid else "invalid",
                problems[0][1] if problems else "valid"))
    total = len(VALID_RECORDS) + len(INVALID_RECORDS) + len(FILES)
    print("validate_spaa self-test: %d passed, %d failed"
          % (total - failures, failures))
    return failures == 0


def main():
    parser = argparse.ArgumentParser(
        description="Check SPAA files against "
        "schemas/spaa-record.schema.json.")
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing for valid files")
    parser.add_argument("--max-errors", type=int, default=20, metavar="N",
                        help="errors shown per file (default 20)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the schema on built-in examples")
    args = parser.parse_args()
    if args.self_test:
        return 0 if self_test() else 1
    if not args.files:
        parser.error("no FILE given")
    validator = load_validator()
    ok = True
    for path in args.files:
        ok &= validate_file(validator, path, args.max_errors, args.quiet)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
