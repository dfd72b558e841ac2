"""Writes a SPAA profile whose one stack has N frames (argv[1]).

A hostile input made at test time (a million frames is a 2 MB line):
tests/golden/*deep_stack*.cmd feed it to an analysis, which must
stop at the depth bound (SPAA_MAX_DEPTH) with a clear error.
"""
import sys

n = int(sys.argv[1])
out = sys.stdout
out.write('{"type":"header","format":"spaa","version":"1.0","source_tool":"perf",'
          '"frame_order":"leaf_to_root","events":[{"name":"cpu-clock",'
          '"kind":"software","sampling":{"mode":"period","primary_metric":"period"}}],'
          '"time_range":{"start":1.0,"end":2.0,"unit":"seconds"},"stack_id_mode":"local"}\n')
out.write('{"type":"dso","id":1,"name":"/app","is_kernel":false}\n')
out.write('{"type":"frame","id":1,"func":"f","dso":1,"kind":"user"}\n')
out.write('{"type":"stack","id":"s","frames":[' + ','.join(['1'] * n) +
          '],"context":{"event":"cpu-clock"},"weights":[{"metric":"period","value":1}]}\n')
