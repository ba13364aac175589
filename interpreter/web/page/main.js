// The playground page (docs/playground.md): the editor, the example menu,
// the share link, and the runs, which happen in worker.js.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const code = $('code'), highlightBox = $('highlight'), gutter = $('gutter');
  const runButton = $('run'), stopButton = $('stop'), shareButton = $('share');
  const status = $('status'), output = $('output'), diagram = $('diagram'), examples = $('examples');
  const NAME = 'program.hum';          // the program's name in diagnostics
  const MAX_OUTPUT = 2_000_000;        // characters of output the page keeps (the rest is counted)
  const examplePrograms = self.HUMUS_EXAMPLES || [];

  // ------------------------------------------------------------ editor
  let errorLines = new Set();
  function render() {
    const text = code.value;
    const lines = text.split('\n');
    let html = HumusHighlight.highlight(text);
    if (errorLines.size) {  // mark the lines a diagnostic names, line by line of the highlighted HTML
      const parts = html.split('\n');
      for (const n of errorLines) if (n >= 1 && n <= parts.length) parts[n - 1] = `<span class="error-line">${parts[n - 1]}</span>`;
      html = parts.join('\n');
    }
    highlightBox.innerHTML = html + '\n';
    gutter.innerHTML = lines.map((_, i) => errorLines.has(i + 1) ? `<span class="error-line">${i + 1}</span>` : String(i + 1)).join('\n');
  }
  function setCode(text) {
    code.value = text;
    errorLines = new Set();
    render();
  }
  code.addEventListener('input', () => { errorLines = new Set(); render(); });
  code.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (!runButton.disabled) run();
    } else if (e.key === 'Tab' && !e.shiftKey) {  // two spaces, not a jump out of the editor
      e.preventDefault();
      document.execCommand('insertText', false, '  ');
    }
  });
  // Puts the caret at line:column (1-based) and shows it.
  function goTo(line, column) {
    const lines = code.value.split('\n');
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.max(0, column - 1);
    code.focus();
    code.setSelectionRange(at, at);
  }

  // ------------------------------------------------------------ examples and share links
  for (const ex of examplePrograms) {
    const o = document.createElement('option');
    o.value = ex.name;
    o.textContent = ex.name;
    examples.append(o);
  }
  examples.addEventListener('change', () => {
    const ex = examplePrograms.find((x) => x.name === examples.value);
    if (ex) setCode(ex.code);
  });

  // The program travels in the address's fragment (never sent to a server), as base64url of its UTF-8.
  function encode(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function decode(s) {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  }
  function fromAddress() {
    const m = /^#code=(.*)$/.exec(location.hash);
    if (!m) return null;
    try {
      return decode(m[1]);
    } catch {
      return null;
    }
  }
  shareButton.addEventListener('click', () => {
    const url = location.href.replace(/#.*$/, '') + '#code=' + encode(code.value);
    history.replaceState(null, '', url);
    const box = $('share-link');
    box.hidden = false;
    box.value = url;
    box.select();
    navigator.clipboard?.writeText(url).then(() => { status.textContent = 'link copied'; }, () => {});
  });
  window.addEventListener('hashchange', () => {
    const shared = fromAddress();
    if (shared !== null && shared !== code.value) setCode(shared);
  });

  // ------------------------------------------------------------ output
  let shown = 0, dropped = 0;
  function clearOutput() {
    output.textContent = '';
    shown = 0;
    dropped = 0;
  }
  function append(text, cls) {
    if (!text) return;
    if (shown >= MAX_OUTPUT) {
      dropped += text.length;
      return;
    }
    const span = document.createElement('span');
    if (cls) span.className = cls;
    span.textContent = text;
    if (cls === 'err') linkDiagnostics(span, text);
    output.append(span);
    shown += text.length;
    output.scrollTop = output.scrollHeight;
  }
  // "program.hum:3:5: error: ..." becomes a link to line 3, column 5, and line 3 is marked in the editor.
  const DIAG = new RegExp(`^${NAME.replace('.', '\\.')}:(\\d+):(\\d+):`, 'gm');
  function linkDiagnostics(span, text) {
    let m, last = 0, marked = false;
    DIAG.lastIndex = 0;
    const frag = document.createDocumentFragment();
    while ((m = DIAG.exec(text))) {
      const [all, line, col] = m;
      frag.append(text.slice(last, m.index));
      const a = document.createElement('a');
      a.href = '#';
      a.className = 'diag';
      a.dataset.line = line;
      a.dataset.column = col;
      a.textContent = all;
      a.addEventListener('click', (e) => { e.preventDefault(); goTo(Number(line), Number(col)); });
      frag.append(a);
      last = m.index + all.length;
      errorLines.add(Number(line));
      marked = true;
    }
    if (!marked) return;
    frag.append(text.slice(last));
    span.textContent = '';
    span.append(frag);
    render();
  }

  // ------------------------------------------------------------ runs
  // Stop reaches a program busy inside one event through memory shared with
  // the worker (cross-origin isolated pages only); elsewhere Stop ends the worker.
  const shared = self.crossOriginIsolated && typeof SharedArrayBuffer === 'function';
  let worker = null, ready = false, running = false, stopFlag = null, startedAt = 0, stopTimer = null;

  function newWorker() {
    ready = false;
    worker = new Worker('worker.js');
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'ready') {
        ready = true;
        $('version').textContent = `Humus ${m.version}.`;
        if (!running) setStatus('ready');
        runButton.disabled = false;
      } else if (m.type === 'output') {
        append(m.out);
        append(m.err, 'err');
      } else if (m.type === 'done') {
        done(m.outcome, m.diagram);
      }
    };
    worker.onerror = (e) => {
      append(`the interpreter failed: ${e.message}\n`, 'err');
      done('runtime-error', '');
      newWorker();
    };
  }

  function setStatus(text) {
    status.textContent = text;
    document.body.dataset.state = text.split(' ')[0];
  }

  function run() {
    if (running) return;
    clearOutput();
    errorLines = new Set();
    render();
    diagram.textContent = '';
    running = true;
    runButton.disabled = true;
    stopButton.disabled = false;
    startedAt = performance.now();
    setStatus('running');
    stopFlag = shared ? new SharedArrayBuffer(4) : null;
    worker.postMessage({ type: 'run', code: code.value, name: NAME, stop: stopFlag });
  }

  function stop() {
    if (!running) return;
    stopButton.disabled = true;
    setStatus('stopping');
    if (stopFlag) {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
      // It answers at its next safe point; a worker that does not (it should) is ended.
      stopTimer = setTimeout(() => { if (running) endWorker(); }, 3000);
    } else {
      endWorker();
    }
  }

  function endWorker() {
    worker.terminate();
    newWorker();
    append('(the interpreter was restarted)\n', 'note');
    done('stopped', '');
  }

  function done(outcome, svg) {
    if (!running) return;
    clearTimeout(stopTimer);
    running = false;
    stopButton.disabled = true;
    runButton.disabled = !ready && !worker;
    if (dropped) append(`\n... ${dropped} more characters of output not shown\n`, 'note');
    const ms = Math.round(performance.now() - startedAt);
    const words = { ok: 'done', 'runtime-error': 'done, with runtime errors', 'compile-error': 'not run: errors in the program', stopped: 'stopped' };
    setStatus(`${words[outcome] ?? outcome} (${ms} ms)`);
    document.body.dataset.outcome = outcome;
    if (svg) diagram.innerHTML = svg;  // made by interpreter/trace/diagram.cpp, which escapes every text
    else diagram.textContent = '';
  }

  runButton.addEventListener('click', run);
  stopButton.addEventListener('click', stop);

  // ------------------------------------------------------------ start
  const first = fromAddress();
  if (first !== null) {
    setCode(first);
    examples.value = '';
  } else if (examplePrograms.length) {
    examples.value = examplePrograms[0].name;
    setCode(examplePrograms[0].code);
  } else {
    setCode('');
  }
  newWorker();
})();
