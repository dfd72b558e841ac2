const v8 = require('v8');
function makeRecords(n) { const a = []; for (let i = 0; i < n; i++) a.push({ id: i, name: 'rec' + i, tags: [i % 7, i % 11] }); return a; }
function buildIndex(recs) { const m = new Map(); for (const r of recs) m.set(r.name, r); return m; }
function strings(n) { const s = []; for (let i = 0; i < n; i++) s.push('x'.repeat(i % 50) + i); return s; }
const keep = [];
keep.push(makeRecords(2000));
keep.push(buildIndex(keep[0]));
keep.push(strings(3000));
const f = v8.writeHeapSnapshot(process.argv[2] || 'snap.heapsnapshot');
console.log(f);
