#!/usr/bin/python3
"""validate_lami.py - check what a LAMI analysis printed on stdout.

usage: validate_lami.py [-q] [--metadata FILE] [--exit-status N]
                        [--expect FILE] [--canonical-out FILE]
                        [--label NAME] [FILE|-]...
       validate_lami.py --self-test

FILE (default: standard input) is the stdout of one run: a metadata object,
a results object or an error object, possibly preceded by progress lines.
The JSON starts at the first line whose first non-blank character is "{",
as in Trace Compass.  Checks:

  - stdout is UTF-8 and ends with a newline;
  - every line before the JSON is a progress line "VALUE[ MESSAGE]": VALUE
    is "*" or a number in [0, 1] starting with a digit, values never
    decrease, "*" is not mixed with numbers, at most MAX_PROGRESS_LINES;
  - the first JSON line holds no U+0085, U+2028 or U+2029 (Trace Compass
    would not see the JSON start there);
  - exactly one JSON object, strict JSON: no NaN/Infinity, no duplicate
    keys (fatal to Trace Compass), nothing after it;
  - the object validates against schemas/lami-{metadata,results,error}
    .schema.json, chosen by shape ("error-message", "results", else
    metadata), with "integer" meaning an integer literal;
  - every time range ends at or after its beginning;
  - with --metadata FILE (that program's --metadata output): every table
    names a declared class, every row has one cell per column, and every
    cell fits its column's class (null and {"class": "unknown"} fit any
    column; int takes integer literals, number any number, string and bool
    the plain values, mixed anything, other classes data objects of that
    class);
  - with --exit-status N: an error object if and only if N is not 0.

A stdout without a JSON line (--mi-version, --help) is only checked for
UTF-8 and the exit status rule.

--expect FILE compares the canonical form of stdout with the canonical form
of FILE and prints a unified diff when they differ.  The canonical form is
the progress lines verbatim, then the JSON formatted with sorted keys and
one-space indentation (or the text verbatim when there is no JSON or it
does not parse).  --canonical-out FILE writes it (make golden).

Problems are printed as "LABEL: message" (LABEL defaults to the file name);
valid files print "LABEL: ok (KIND)" unless -q.  Exit status: 0 valid (and
matching), 1 otherwise, 2 on usage errors.  --self-test checks the schemas
and the checks above on built-in documents (run by tests/schemas.sh).
"""

import argparse
import difflib
import json
import math
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(HERE, "..", "schemas")
KINDS = ("metadata", "results", "error")

# doc/LAMI.md: "at most about a hundred per run"; lami.h writes at most ~101.
MAX_PROGRESS_LINES = 110
MAX_PROBLEMS = 20
MAX_DIFF_LINES = 120

PROGRESS_RE = re.compile(r"(\*|[0-9]+(?:\.[0-9]+)?)(?: (.*))?\Z")
JAVA_LINE_BREAKS = ("\u0085", "\u2028", "\u2029")


# ---- strict JSON -----------------------------------------------------------

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


STRICT_DECODER = json.JSONDecoder(object_pairs_hook=_object_without_duplicates,
                                  parse_constant=_reject_constant,
                                  parse_float=_finite_float)


def canonical_json(doc):
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def strict_validator_class(cls):
    """cls with "integer" meaning a JSON integer literal: Trace Compass
    fails on 1.0 where it wants an integer, jsonschema accepts it."""
    checker = cls.TYPE_CHECKER.redefine(
        "integer",
        lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(cls, type_checker=checker)


_validators = {}


def validator(kind):
    if kind not in _validators:
        path = os.path.join(SCHEMA_DIR, "lami-%s.schema.json" % kind)
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _validators[kind] = strict_validator_class(cls)(schema)
    return _validators[kind]


def json_path(parts):
    path = ""
    for part in parts:
        path += "[%d]" % part if isinstance(part, int) else ".%s" % part
    return path.lstrip(".") or "top level"


# ---- splitting stdout ------------------------------------------------------

class Output:
    """One run's stdout, split the way Trace Compass splits it."""

    def __init__(self, data):
        self.data = data
        self.text = None        # str, or None if not UTF-8
        self.progress = []      # lines before the JSON
        self.json_text = None   # from the first "{" line on, or None
        self.doc = None         # the parsed object, or None
        self.parse_error = None
        self.trailing = ""      # text after the object
        try:
            self.text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        lines = self.text.split("\n")
        for i, line in enumerate(lines):
            if line.lstrip().startswith("{"):
                self.progress = lines[:i]
                self.json_text = "\n".join(lines[i:])
                break
        if self.json_text is None:
            return
        start = len(self.json_text) - len(self.json_text.lstrip())
        try:
            self.doc, end = STRICT_DECODER.raw_decode(self.json_text, start)
            self.trailing = self.json_text[end:]
        except ValueError as e:
            self.parse_error = str(e)

    def canonical(self):
        """The canonical form as bytes (see the module docstring)."""
        if self.doc is None or self.trailing.strip():
            return self.data
        text = "".join(line + "\n" for line in self.progress)
        text += canonical_json(self.doc)
        return text.encode("utf-8", "surrogatepass")


def canonical_of_file(data):
    """Canonical form of an expected-output file.  Lenient: a hand-written
    .out may use any JSON formatting."""
    out = Output(data)
    if out.doc is None and out.json_text is not None:
        try:
            out.doc = json.loads(out.json_text)
            out.trailing = ""
        except ValueError:
            return data
    return out.canonical()


# ---- checks ----------------------------------------------------------------

def document_kind(doc):
    if "error-message" in doc or "error-code" in doc:
        return "error"
    if "results" in doc:
        return "results"
    if "table-classes" in doc or "mi-version" in doc:
        return "metadata"
    return None


def check_progress(lines):
    problems = []
    if len(lines) > MAX_PROGRESS_LINES:
        problems.append("%d progress lines (at most %d)"
                        % (len(lines), MAX_PROGRESS_LINES))
    last = None
    star = number = False
    for i, line in enumerate(lines, 1):
        m = PROGRESS_RE.match(line)
        if "\r" in line or not m:
            problems.append("line %d before the JSON is not a progress line: "
                            "%r" % (i, line[:80]))
            continue
        if m.group(1) == "*":
            star = True
            continue
        number = True
        value = float(m.group(1))
        if value > 1:
            problems.append("line %d: progress value %s is above 1"
                            % (i, m.group(1)))
        if last is not None and value < last:
            problems.append("line %d: progress value %s is below the previous "
                            "%s" % (i, m.group(1), last))
        last = value
    if star and number:
        problems.append("progress lines mix '*' with numbers")
    return problems


def strings_with_surrogates(node, path=()):
    if isinstance(node, str):
        if any("\ud800" <= c <= "\udfff" for c in node):
            yield path
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from strings_with_surrogates(item, path + (i,))
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from strings_with_surrogates(item, path + (key,))


def check_time_ranges(doc):
    """end >= begin for every time-range object, wherever it is."""
    def walk(node, path):
        if isinstance(node, dict):
            if node.get("class") == "time-range":
                b, e = node.get("begin"), node.get("end")
                if isinstance(b, int) and isinstance(e, int) and e < b:
                    yield "%s: time range ends (%d) before it begins (%d)" % (
                        json_path(path), e, b)
            for key, item in node.items():
                yield from walk(item, path + (key,))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                yield from walk(item, path + (i,))
    return list(walk(doc, ()))


def cell_fits(cell, column_class):
    if cell is None or column_class == "mixed":
        return True
    if isinstance(cell, dict) and cell.get("class") == "unknown":
        return True
    plain_number = (isinstance(cell, (int, float))
                    and not isinstance(cell, bool))
    if column_class == "int":
        return plain_number and isinstance(cell, int)
    if column_class == "number":
        return plain_number
    if column_class == "string":
        return isinstance(cell, str)
    if column_class == "bool":
        return isinstance(cell, bool)
    return isinstance(cell, dict) and cell.get("class") == column_class


def describe(cell):
    text = json.dumps(cell, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def check_against_metadata(doc, metadata):
    problems = []
    classes = metadata.get("table-classes", {})
    for t, table in enumerate(doc["results"]):
        cls = table["class"]
        where = "results[%d]" % t
        if isinstance(cls, str) or "inherit" in cls:
            name = cls if isinstance(cls, str) else cls["inherit"]
            if name not in classes:
                problems.append("%s: table class %r is not in the metadata"
                                % (where, name))
                continue
            columns = classes[name]["column-descriptions"]
        else:
            columns = cls["column-descriptions"]
        for r, row in enumerate(table["data"]):
            if len(row) != len(columns):
                problems.append("%s.data[%d]: %d cells for %d columns"
                                % (where, r, len(row), len(columns)))
                continue
            for c, (cell, column) in enumerate(zip(row, columns)):
                column_class = column.get("class", "mixed")
                if not cell_fits(cell, column_class):
                    problems.append("%s.data[%d][%d]: %s does not fit column "
                                    "%r (%s)" % (where, r, c, describe(cell),
                                                 column.get("title"),
                                                 column_class))
    return problems


def check_output(out, metadata=None, exit_status=None):
    """Problems (strings) with one run's stdout; see the module docstring."""
    if out.text is None:
        return ["stdout is not valid UTF-8"]
    problems = []
    if out.data and not out.data.endswith(b"\n"):
        problems.append("stdout does not end with a newline")
    if out.json_text is None:
        if exit_status:
            problems.append("exit status %d without an error object on stdout"
                            % exit_status)
        return problems
    problems += check_progress(out.progress)
    first_line = out.json_text.split("\n", 1)[0]
    if any(c in first_line for c in JAVA_LINE_BREAKS):
        problems.append("the first JSON line holds U+0085, U+2028 or U+2029: "
                        "Trace Compass cannot find the JSON")
    if out.parse_error:
        return problems + ["not a valid JSON object: %s" % out.parse_error]
    if out.trailing.strip():
        problems.append("text after the JSON object: %r" % out.trailing[:60])
    if not isinstance(out.doc, dict):
        return problems + ["the JSON value is not an object"]
    for path in strings_with_surrogates(out.doc):
        problems.append("%s: string with an unpaired surrogate escape"
                        % json_path(path))
    kind = document_kind(out.doc)
    if kind is None:
        return problems + ["not a LAMI document: no 'results', "
                           "'error-message' or 'table-classes' key"]
    errors = sorted(validator(kind).iter_errors(out.doc),
                    key=lambda e: [str(p) for p in e.absolute_path])
    for e in errors:
        problems.append("%s: %s (schemas/lami-%s.schema.json)"
                        % (json_path(e.absolute_path), e.message, kind))
    if exit_status is not None:
        if exit_status and kind != "error":
            problems.append("exit status %d, but stdout is not an error object"
                            % exit_status)
        if not exit_status and kind == "error":
            problems.append("an error object with exit status 0")
    if errors:
        return problems
    problems += check_time_ranges(out.doc)
    if kind == "results" and metadata is not None:
        problems += check_against_metadata(out.doc, metadata)
    return problems


def load_metadata(path):
    """(metadata object, None) or (None, problem)."""
    try:
        with open(path, "rb") as f:
            out = Output(f.read())
    except OSError as e:
        return None, "cannot read metadata: %s" % e
    problems = check_output(out, exit_status=0)
    if problems or document_kind(out.doc) != "metadata":
        return None, "metadata %s is not a valid metadata object: %s" % (
            path, problems[0] if problems else "wrong kind")
    return out.doc, None


def diff_lines(expected, actual, expected_name):
    a = expected.decode("utf-8", "replace").splitlines(keepends=True)
    b = actual.decode("utf-8", "replace").splitlines(keepends=True)
    lines = list(difflib.unified_diff(a, b, expected_name, "actual"))
    lines = [l if l.endswith("\n") else l + "\n\\ No newline at end of file\n"
             for l in lines]
    if len(lines) > MAX_DIFF_LINES:
        more = len(lines) - MAX_DIFF_LINES
        lines = lines[:MAX_DIFF_LINES] + ["... (%d more diff lines)\n" % more]
    return "".join(lines)


# ---- self-test -------------------------------------------------------------

METADATA = {
    "mi-version": {"major": 0, "minor": 1},
    "version": {"major": 1, "minor": 2, "patch": 3, "extra": "dev"},
    "title": "Hot spots",
    "authors": ["spaa-tools"],
    "description": "d",
    "url": "https://example.org",
    "tags": ["profile"],
    "table-classes": {
        "functions": {
            "title": "Functions",
            "column-descriptions": [
                {"title": "Function", "class": "string"},
                {"title": "Samples", "class": "int", "unit": "samples"},
                {"title": "Self", "class": "duration"},
                {"title": "Share", "class": "ratio"},
                {"title": "Weight", "class": "mixed"},
            ],
        },
        "threads": {
            "title": "Threads",
            "column-descriptions": [
                {"title": "Thread", "class": "process"},
                {"title": "CPU", "class": "cpu"},
                {"title": "Binary", "class": "path"},
                {"title": "Range", "class": "time-range"},
                {"title": "Bytes", "class": "size"},
                {"title": "When", "class": "timestamp"},
                {"title": "Cycles", "class": "number", "unit": "cycles"},
                {"title": "Kernel", "class": "bool"},
            ],
        },
    },
}

TR = {"class": "time-range", "begin": 100, "end": 200}
FUNCTIONS = {"time-range": TR, "class": "functions",
             "data": [["main", 3, {"class": "duration", "value": 3000000},
                       {"class": "ratio", "value": 0.25}, 1.5],
                      ["f\u2028g", 0, {"class": "unknown"}, None, "x"]]}
THREADS = {"time-range": TR,
           "class": {"inherit": "threads", "title": "Threads (whole profile)"},
           "data": [[{"class": "process", "name": "a", "pid": 1, "tid": 2},
                     {"class": "cpu", "id": 3},
                     {"class": "path", "path": "/bin/a"},
                     {"class": "time-range", "begin": 5, "end": 5},
                     {"class": "size", "value": -4096},
                     {"class": "timestamp", "value": 9223372036854775807},
                     12.5, True],
                    [{"class": "process", "pid": 1}, None, None, None, None,
                     None, 7, False]]}
DYNAMIC = {"time-range": TR,
           "class": {"title": "Functions by cycles",
                     "column-descriptions": [
                         {"title": "Function", "class": "string"},
                         {"title": "Cycles", "class": "number",
                          "unit": "cycles"}]},
           "data": [["main", 1e9]]}
RESULTS = {"results": [FUNCTIONS, THREADS, DYNAMIC]}
OTHER_OBJECTS = {"results": [{
    "time-range": TR,
    "class": {"title": "All v0.1 data objects",
              "column-descriptions": [{"title": "x", "class": "mixed"}]},
    "data": [[{"class": "bitrate", "value": 1.5}],
             [{"class": "syscall", "name": "read"}],
             [{"class": "fd", "fd": 3}],
             [{"class": "irq", "nr": 4, "hard": False, "name": "ahci"}],
             [{"class": "disk", "name": "sda"}],
             [{"class": "part", "name": "sda1"}],
             [{"class": "netif", "name": "eth0"}]]}]}
ERROR = {"error-code": "input-not-found",
         "error-message": "x.spaa: no such file or directory"}


def dumps(doc):
    return json.dumps(doc, ensure_ascii=False)


def lami(doc):
    """doc as lami.h writes it: "{" alone on the first line."""
    return "{\n" + dumps(doc)[1:] + "\n"


def edit(doc, path, value):
    """A deep copy of doc with path set to value (deleted if DELETE)."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


DELETE = object()
F0 = ("results", 0, "data", 0)         # first row of FUNCTIONS
T0 = ("results", 1, "data", 0)         # first row of THREADS
MCOL = ("table-classes", "functions", "column-descriptions")

# (name, stdout text, exit status, a substring of the expected problem or
# None when the output must be valid).  Results are checked against METADATA.
SELF_TESTS = [
    ("metadata", lami(METADATA), 0, None),
    ("results", lami(RESULTS), 0, None),
    ("results with progress",
     "0 start\n0.5 half way\n0.5\n1 done\n" + lami(RESULTS), 0, None),
    ("progress without a value", "* a\n* b\n" + lami(RESULTS), 0, None),
    ("other data objects", lami(OTHER_OBJECTS), 0, None),
    ("error object", lami(ERROR), 1, None),
    ("error with integer code", lami(edit(ERROR, ("error-code",), 2)), 2,
     None),
    ("mi-version answer", "1.0\n", 0, None),
    ("empty stdout", "", 0, None),

    ("not UTF-8", b'{"error-message": "\xff"}\n', 1, "not valid UTF-8"),
    ("no final newline", dumps(ERROR), 1, "newline"),
    ("failure without error object", "", 1, "without an error object"),
    ("results with exit status 1", lami(RESULTS), 1, "not an error"),
    ("error with exit status 0", lami(ERROR), 0, "exit status 0"),
    ("two objects", lami(ERROR) + lami(ERROR), 1,
     "text after the JSON"),
    ("junk before the JSON", "hello\n" + lami(RESULTS), 0,
     "not a progress line"),
    ("blank line before the JSON", "\n" + lami(RESULTS), 0,
     "not a progress line"),
    ("progress value .5", ".5 x\n" + lami(RESULTS), 0,
     "not a progress line"),
    ("progress above 1", "1.5 x\n" + lami(RESULTS), 0, "above 1"),
    ("progress going back", "0.5\n0.4\n" + lami(RESULTS), 0,
     "below the previous"),
    ("progress mixing *", "*\n0.5\n" + lami(RESULTS), 0, "mix"),
    ("progress with CR", "0.5 x\r\n" + lami(RESULTS), 0,
     "not a progress line"),
    ("too many progress lines", "0\n" * 200 + lami(RESULTS), 0,
     "progress lines (at most"),
    ("U+2028 on the first JSON line", dumps(RESULTS) + "\n", 0, "U+2028"),
    ("duplicate key", '{"error-message": "a", "error-message": "b"}\n', 1,
     "duplicate key"),
    ("NaN", '{"results": [{"time-range": {"class": "time-range", "begin": 0, '
     '"end": 1}, "class": "functions", "data": [[NaN]]}]}\n', 0,
     "NaN is not JSON"),
    ("truncated JSON", dumps(RESULTS)[:-1] + "\n", 0, "not a valid JSON"),
    ("a JSON array", "{\n" + "[1]\n", 0, "not a valid JSON"),
    ("not LAMI", '{"hello": 1}\n', 0, "not a LAMI document"),

    ("metadata without title", lami(edit(METADATA, ("title",), DELETE)), 0,
     "'title' is a required"),
    ("metadata without mi-version",
     lami(edit(METADATA, ("mi-version",), DELETE)), 0,
     "'mi-version' is a required"),
    ("metadata: mi-version without minor",
     lami(edit(METADATA, ("mi-version", "minor"), DELETE)), 0,
     "'minor' is a required"),
    ("metadata: version patch without minor",
     lami(edit(METADATA, ("version", "minor"), DELETE)), 0, "dependency"),
    ("metadata: no table classes",
     lami(edit(METADATA, ("table-classes",), {})), 0,
     "does not have enough properties"),
    ("metadata: table class without title",
     lami(edit(METADATA, ("table-classes", "functions", "title"), DELETE)),
     0, "'title' is a required"),
    ("metadata: table class without columns",
     lami(edit(METADATA, MCOL, DELETE)), 0,
     "'column-descriptions' is a required"),
    ("metadata: inherit", lami(edit(METADATA, ("table-classes", "functions",
                                                "inherit"), "threads")), 0,
     "Additional properties"),
    ("metadata: column class float",
     lami(edit(METADATA, MCOL + (1, "class"), "float")), 0,
     "'float' is not one of"),
    ("metadata: column class unknown",
     lami(edit(METADATA, MCOL + (1, "class"), "unknown")), 0,
     "'unknown' is not one of"),
    ("metadata: unit on a duration column",
     lami(edit(METADATA, MCOL + (2, "unit"), "ns")), 0, "is not one of"),
    ("metadata: authors not strings",
     lami(edit(METADATA, ("authors",), [1])), 0, "is not of type 'string'"),
    ("metadata: null url", lami(edit(METADATA, ("url",), None)), 0,
     "None is not of type 'string'"),

    ("results: empty", '{"results": []}\n', 0, "is too short"),
    # a --begin/--end window without samples
    ("results: table without rows",
     lami(edit(RESULTS, ("results", 0, "data"), [])), 0, None),
    ("results: time-range begin 1.0",
     lami(edit(RESULTS, ("results", 0, "time-range", "begin"), 1.0)),
     0, "1.0 is not of type 'integer'"),
    ("results: time-range of class timestamp",
     lami(edit(RESULTS, ("results", 0, "time-range", "class"), "timestamp")),
     0, "'time-range' was expected"),
    ("results: time range backwards",
     lami(edit(RESULTS, ("results", 0, "time-range", "end"), 99)),
     0, "ends (99) before it begins (100)"),
    ("results: inherit without title",
     lami(edit(RESULTS, ("results", 1, "class", "title"), DELETE)),
     0, "not valid under any"),
    ("results: duration 12.7",
     lami(edit(RESULTS, F0 + (2,), {"class": "duration", "value": 12.7})),
     0, "12.7 is not of type 'integer'"),
    ("results: size as a string",
     lami(edit(RESULTS, T0 + (4,), {"class": "size", "value": "3"})),
     0, "'3' is not of type 'integer'"),
    ("results: timestamp beyond 64 bits",
     lami(edit(RESULTS, T0 + (5,), {"class": "timestamp",
                                     "value": 2 ** 63})),
     0, "is greater than the maximum"),
    ("results: null pid",
     lami(edit(RESULTS, T0 + (0,), {"class": "process", "pid": None})),
     0, "None is not of type 'integer'"),
    ("results: ratio without value",
     lami(edit(RESULTS, F0 + (3,), {"class": "ratio"})), 0,
     "'value' is a required"),
    ("results: int object",
     lami(edit(RESULTS, F0 + (1,), {"class": "int", "value": 3})), 0,
     "'int' is not one of"),
    ("results: number object (not v0.1)",
     lami(edit(RESULTS, F0 + (4,), {"class": "number", "value": 3})),
     0, "'number' is not one of"),
    ("results: misspelt key",
     lami(edit(RESULTS, T0 + (0,), {"class": "process", "PID": 3})),
     0, "Additional properties"),
    ("results: array cell", lami(edit(RESULTS, F0 + (4,), [1])), 0,
     "is not of type"),
    ("results: cpu id beyond 32 bits",
     lami(edit(RESULTS, T0 + (1,), {"class": "cpu", "id": 2 ** 31})),
     0, "is greater than the maximum"),

    ("results: undeclared class",
     lami(edit(RESULTS, ("results", 0, "class"), "nope")), 0,
     "'nope' is not in the metadata"),
    ("results: short row",
     lami(edit(RESULTS, F0, ["main", 3])), 0, "2 cells for 5 columns"),
    ("results: float in an int column",
     lami(edit(RESULTS, F0 + (1,), 3.0)), 0, "(int)"),
    ("results: integer in a string column",
     lami(edit(RESULTS, F0 + (0,), 3)), 0, "(string)"),
    ("results: duration in a ratio column",
     lami(edit(RESULTS, F0 + (3,), {"class": "duration", "value": 1})),
     0, "(ratio)"),
    ("results: string in a number column (dynamic class)",
     lami(edit(RESULTS, ("results", 2, "data", 0, 1), "1e9")), 0,
     "(number)"),
    ("results: plain number in a duration column",
     lami(edit(RESULTS, F0 + (2,), 3000000)), 0,
     "(duration)"),

    ("error without message", '{"error-code": "usage"}\n', 2,
     "'error-message' is a required"),
    ("error with empty message", '{"error-message": ""}\n', 2,
     "is too short"),
    ("error code as float", '{"error-message": "x", "error-code": 1.5}\n', 2,
     "not valid under any"),
    ("error with extra key",
     '{"error-message": "x", "results": []}\n', 2, "Additional properties"),
]


def self_test():
    failures = 0
    for kind in KINDS:
        validator(kind)         # check_schema
    for name, text, status, expected in SELF_TESTS:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        problems = check_output(Output(data), METADATA, status)
        if expected is None and problems:
            failures += 1
            print("FAIL %s: expected valid, got: %s" % (name, problems[0]))
        elif expected is not None and not any(expected in p for p in problems):
            failures += 1
            print("FAIL %s: expected a problem with %r, got: %s"
                  % (name, expected, problems or "none"))
    canon = Output(b"0.5 x\n{\"b\": 1, \"a\": [1.0, 2]}\n").canonical()
    if canon != b'0.5 x\n{\n "a": [\n  1.0,\n  2\n ],\n "b": 1\n}\n':
        failures += 1
        print("FAIL canonical form: %r" % canon)
    total = len(SELF_TESTS) + 1
    print("validate_lami self-test: %d passed, %d failed"
          % (total - failures, failures))
    return failures == 0


# ---- main ------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(
        description="Check the stdout of a LAMI analysis run.")
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing for valid files")
    parser.add_argument("--metadata", metavar="FILE",
                        help="the program's --metadata output, to check "
                        "tables, rows and cells against")
    parser.add_argument("--exit-status", type=int, metavar="N",
                        help="the run's exit status")
    parser.add_argument("--expect", metavar="FILE",
                        help="compare with FILE after canonical formatting")
    parser.add_argument("--canonical-out", metavar="FILE",
                        help="write the canonical form of stdout to FILE")
    parser.add_argument("--label", help="name used in messages")
    parser.add_argument("--self-test", action="store_true",
                        help="check the schemas and checks on built-in "
                        "examples")
    args = parser.parse_args()
    if args.self_test:
        return 0 if self_test() else 1
    files = args.files or ["-"]
    if len(files) > 1 and (args.expect or args.canonical_out or args.label):
        parser.error("--expect, --canonical-out and --label take one FILE")

    metadata = None
    ok = True
    if args.metadata:
        metadata, problem = load_metadata(args.metadata)
        if problem:
            print("%s: %s" % (args.label or args.metadata, problem))
            ok = False
    for path in files:
        label = args.label or ("<stdin>" if path == "-" else path)
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
        out = Output(data)
        problems = check_output(out, metadata, args.exit_status)
        for problem in problems[:MAX_PROBLEMS]:
            print("%s: %s" % (label, problem))
        if len(problems) > MAX_PROBLEMS:
            print("%s: ... and %d more problems"
                  % (label, len(problems) - MAX_PROBLEMS))
        ok &= not problems
        if args.canonical_out:
            with open(args.canonical_out, "wb") as f:
                f.write(out.canonical())
        if args.expect:
            with open(args.expect, "rb") as f:
                expected = canonical_of_file(f.read())
            if expected != out.canonical():
                print("%s: differs from %s:" % (label, args.expect))
                sys.stdout.write(diff_lines(expected, out.canonical(),
                                            args.expect))
                ok = False
        if not problems and not args.quiet:
            kind = None
            if isinstance(out.doc, dict):
                kind = document_kind(out.doc)
            print("%s: ok (%s)" % (label, kind or "no JSON"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
