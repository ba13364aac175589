// The playground's interpreter thread: runs humus.js (the WebAssembly build,
// interpreter/web/playground.cpp) off the page's main thread, so the page
// stays live while a program runs.
//
// Messages in:  {type: 'run', code, name, stop: SharedArrayBuffer | null}
// Messages out: {type: 'ready', version}
//               {type: 'output', out, err}          (batched, as the program prints)
//               {type: 'done', outcome, diagram}    (outcome: ok, runtime-error, compile-error, stopped)
// Stop: the page sets stop[0] = 1 in the shared buffer, which the
// interpreter reads at its safe points (inside an event that never ends
// too) and between slices of events. Without a shared buffer (a page not
// served cross-origin isolated) the page ends this worker instead.
'use strict';
importScripts('humus.js');

const OUTCOMES = ['ok', 'runtime-error', 'compile-error', 'stopped'];
const RUNNING = -2, DONE = -1;
const SLICE_MS = 40;           // events run in slices this long, then the worker hears its messages
const MAX_PENDING = 1 << 20;   // output held back for the page at most, then sent at once

let M = null;
let stopFlag = null;           // Int32Array over the page's SharedArrayBuffer
let out = '', err = '';
let run = 0;                   // the current run's number: a stale continuation sees it changed

self.humusOut = (text) => { out += text; if (out.length > MAX_PENDING) flush(); };
self.humusErr = (text) => { err += text; if (err.length > MAX_PENDING) flush(); };
self.humusStopRequested = () => stopFlag !== null && Atomics.load(stopFlag, 0) !== 0;

function flush() {
  if (!out && !err) return;
  postMessage({ type: 'output', out, err });
  out = '';
  err = '';
}

// A zero-delay continuation that lets the worker's messages in (setTimeout(0) is clamped to 4 ms).
const channel = new MessageChannel();
let next = null;
channel.port1.onmessage = () => { const f = next; next = null; if (f) f(); };
function soon(f) { next = f; channel.port2.postMessage(0); }

function finish(id) {
  if (id !== run) return;
  flush();
  const outcome = OUTCOMES[M.ccall('humus_outcome', 'number', [], [])] ?? 'runtime-error';
  const diagram = M.ccall('humus_diagram', 'string', [], []);
  postMessage({ type: 'done', outcome, diagram });
}

function step(id) {
  if (id !== run) return;
  if (self.humusStopRequested()) M.ccall('humus_stop', null, [], []);
  const s = M.ccall('humus_step', 'number', ['number'], [SLICE_MS]);
  flush();
  if (s === DONE) finish(id);
  else if (s === RUNNING) soon(() => step(id));
  else setTimeout(() => step(id), s);  // the next timer (AFTER) is s ms away
}

function start(msg) {
  const id = ++run;
  stopFlag = msg.stop ? new Int32Array(msg.stop) : null;
  out = '';
  err = '';
  const bytes = new TextEncoder().encode(msg.code);
  const started = M.ccall('humus_start', 'number', ['array', 'number', 'string'], [bytes, bytes.length, msg.name]);
  flush();
  if (OUTCOMES[started] === 'compile-error') finish(id);
  else step(id);
}

let queued = null;  // a run asked for before the module was ready
self.onmessage = (e) => {
  if (e.data.type !== 'run') return;
  if (M) start(e.data);
  else queued = e.data;
};

HumusModule().then((module) => {
  M = module;
  postMessage({ type: 'ready', version: M.ccall('humus_version', 'string', [], []) });
  if (queued) start(queued);
});
