function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function hashy(n) { let h = 0; for (let i = 0; i < n; i++) h = (h * 31 + i) | 0; return h; }
function phaseA() { let s = 0; for (let k = 0; k < 30; k++) s += fib(20); return s; }
function phaseB() { let s = 0; for (let k = 0; k < 40; k++) s += hashy(200000); return s; }
const t0 = Date.now(); let out = 0;
while (Date.now() - t0 < 150) out += phaseA();
const t1 = Date.now();
while (Date.now() - t1 < 150) out += phaseB();
console.log(out > 0);
