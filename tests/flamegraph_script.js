// Runs the script a flame graph SVG embeds against a minimal stand-in for
// the browser's DOM, so that tests/cli_flamegraph.py can check zoom, search
// and hover without a browser.
//
// stdin: {"width": W, "script": "...", "frames": [{"title", "x", "y",
// "width", "fill", "text"}], "inverted": [the same, optional],
// "actions": [["click", i] | ["iclick", i] | ["search", term] |
// ["hover", i] | ["unzoom"] | ["invert"] | ["key", name]]}
// stdout: one JSON state per action: the frames' attributes as the script
// left them (of both views), the groups' display, and the texts of
// details, matched, unzoom, search and invert.
'use strict';
const fs = require('fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));

function element(tag, attrs, text) {
  return {
    tag, attrs: Object.assign({}, attrs), textContent: text || '', children: [], listeners: {},
    getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; },
    setAttribute(k, v) { this.attrs[k] = String(v); },
    removeAttribute(k) { delete this.attrs[k]; },
    addEventListener(type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); },
    fire(type, ev) { (this.listeners[type] || []).forEach(fn => fn(ev || {})); },
    getElementsByTagName(t) { return this.children.filter(c => c.tag === t); },
  };
}

const byId = {};
for (const id of ['details', 'matched', 'unzoom', 'search']) byId[id] = element('text', {}, ' ');
byId.unzoom.setAttribute('display', 'none');
function group(frames, attrs) {
  const top = element('g', attrs);
  for (const f of frames) {
    const g = element('g', {});
    g.children.push(element('title', {}, f.title),
      element('rect', { x: f.x, y: f.y, width: f.width, fill: f.fill }),
      element('text', { x: f.x + 3 }, f.text));
    top.children.push(g);
  }
  return top;
}
byId.frames = group(input.frames, {});
if (input.inverted) {
  byId.inverted = group(input.inverted, { display: 'none' });
  byId.invert = element('text', {}, 'Inverted (callers)');
}
const documentListeners = element('document', {});
let answer = null;
global.document = {
  documentElement: element('svg', { width: input.width }),
  getElementById: id => byId[id],
  addEventListener: (t, fn) => documentListeners.addEventListener(t, fn),
};
global.prompt = () => answer;
global.alert = msg => { throw new Error('alert: ' + msg); };
new Function(input.script)();

const groups = byId.frames.children;
const igroups = byId.inverted ? byId.inverted.children : [];
const state = gs => gs.map(g => {
  const r = g.children[1];
  return { display: g.getAttribute('display'), opacity: g.getAttribute('opacity'),
    x: +r.getAttribute('x'), width: +r.getAttribute('width'), fill: r.getAttribute('fill'),
    text: g.children[2].textContent };
});
const out = [];
for (const [what, arg] of input.actions) {
  if (what === 'click') groups[arg].fire('click');
  else if (what === 'iclick') igroups[arg].fire('click');
  else if (what === 'invert') byId.invert.fire('click');
  else if (what === 'hover') groups[arg].fire('mouseover');
  else if (what === 'unzoom') byId.unzoom.fire('click');
  else if (what === 'key') documentListeners.fire('keydown', { key: arg, preventDefault() {} });
  else if (what === 'search') { answer = arg; byId.search.fire('click'); }
  out.push({
    frames: state(groups), inverted: state(igroups),
    shown: byId.inverted ? [byId.frames.getAttribute('display'),
      byId.inverted.getAttribute('display')] : null,
    details: byId.details.textContent, matched: byId.matched.textContent,
    unzoom: byId.unzoom.getAttribute('display'), search: byId.search.textContent,
    invert: byId.invert ? byId.invert.textContent : null,
  });
}
process.stdout.write(JSON.stringify(out));
