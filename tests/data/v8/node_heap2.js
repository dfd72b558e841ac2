// node --track-heap-objects heap2.js: a snapshot before and after a phase
const v8 = require('v8');
function makeRecords(n) { const a = []; for (let i = 0; i < n; i++) a.push({ id: i, name: 'rec' + i }); return a; }
function makeStrings(n) { const s = []; for (let i = 0; i < n; i++) s.push('z'.repeat(i % 30) + i); return s; }
const keep = [makeRecords(2000)];
v8.writeHeapSnapshot('before.heapsnapshot');
keep.push(makeStrings(5000));
keep.push(makeRecords(500));
v8.writeHeapSnapshot('after.heapsnapshot');
