const inspector = require('inspector');
const fs = require('fs');
const session = new inspector.Session();
session.connect();
const chunks = [];
session.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push(m.params.chunk));
function makeRecords(n) { const a = []; for (let i = 0; i < n; i++) a.push({ id: i, name: 'rec' + i }); return a; }
function strings(n) { const s = []; for (let i = 0; i < n; i++) s.push('y'.repeat(i % 40) + i); return s; }
function busyWait(ms) { const t = Date.now(); while (Date.now() - t < ms); }
const keep = [];
session.post('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true }, () => {
  keep.push(makeRecords(3000));
  setTimeout(() => { keep.push(strings(4000));
  setTimeout(() => { keep.push(makeRecords(1000));
  setTimeout(() => {
  session.post('HeapProfiler.stopTrackingHeapObjects', { reportProgress: false }, () => {
    fs.writeFileSync(process.argv[2], chunks.join(''));
    session.disconnect();
  });
  }, 150); }, 150); }, 150);
});
