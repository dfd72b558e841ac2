#!/usr/bin/env python3
"""Writes the hand-made CTF 1.8 metadata of tests/data/ctf/ (README.md):
text/metadata as plain TSDL, packets-be/metadata and no-profile/metadata
as the same text in big-endian packets of 512 bytes (LTTng writes
little-endian packets of 4096: lttng-ust/).  Run from this directory."""
import struct

TSDL = '''/* CTF 1.8 */
/* hand-made for spaa-tools' tests: clock { offset_s = 1; } in a comment is not read */
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;

trace {
	major = 1;
	minor = 8;
	byte_order = be;
	packet.header := struct {
		uint32_t magic;
	};
};

env {
	hostname = "clock { offset = 5; }";
	domain = "ust";
	tracer_name = "hand";
};

// a line comment: clock { freq = 7; }
clock {
	name = "monotonic";
	uuid = "0b6e1ea4-1b4c-4cdb-9b19-8fbcb6d1c0a3";
	description = "Monotonic Clock";
	freq = 1000000; /* Hz: one cycle a microsecond */
	precision = 1;
	offset_s = 1700000000;
	offset = 0x3D090;	/* 250000 cycles: a quarter of a second */
	absolute = FALSE;
};

typealias integer {
	size = 64; align = 8; signed = false;
	map = clock.monotonic.value;
} := uint64_clock_monotonic_t;

stream {
	event.header := struct {
		uint64_clock_monotonic_t timestamp;
	};
};

event {
	name = "tick";
	id = 0;
	fields := struct {
		uint64_t v;
	};
};
'''

PACKET = 512
HEADER = 37
UUID = bytes(range(16))


def packets(text, big_endian):
    order = '>' if big_endian else '<'
    out, data = b'', text.encode()
    step = PACKET - HEADER
    for i in range(0, len(data), step):
        chunk = data[i:i + step]
        content = (HEADER + len(chunk)) * 8
        out += struct.pack(order + 'I16sIII5B', 0x75D11D57, UUID, 0, content,
                           PACKET * 8, 0, 0, 0, 1, 8)
        out += chunk + b'\0' * (PACKET - HEADER - len(chunk))
    return out


with open('text/metadata', 'w') as f:
    f.write(TSDL)
for d in ('packets-be', 'no-profile'):
    with open(d + '/metadata', 'wb') as f:
        f.write(packets(TSDL, True))
