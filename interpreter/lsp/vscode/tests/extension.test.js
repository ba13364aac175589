// The extension's way of starting the server (server.js), spoken to with
// vscode-jsonrpc, the JSON-RPC library of VS Code's own language client:
// the handshake, a syntax error published with its range, hover.
// $HUMUS is the humus command (ctest sets it; else build/humus at the top).
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawn } = require('node:child_process');
const rpc = require('vscode-jsonrpc/node');
const { serverOptions } = require('../server');

const humus = process.env.HUMUS || path.join(__dirname, '..', '..', '..', '..', 'build', 'humus');
const settings = { 'server.path': humus, 'server.logLevel': 'error' };
const config = { get: (key, fallback) => settings[key] ?? fallback };

test('the server the extension starts answers VS Code\'s JSON-RPC', async () => {
  const options = serverOptions(config);
  assert.deepStrictEqual(options.args, ['--lsp', '--log-level', 'error']);
  const server = spawn(options.command, options.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin),
  );
  // Each publishDiagnostics, in order.
  const published = [];
  let wake = () => {};
  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    published.push(params);
    wake();
  });
  const diagnostics = async () => {
    while (published.length === 0) await new Promise((resolve) => (wake = resolve));
    return published.shift();
  };
  connection.listen();
  try {
    const init = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    assert.strictEqual(init.capabilities.hoverProvider, true);
    assert.strictEqual(init.capabilities.definitionProvider, true);
    await connection.sendNotification('initialized', {});

    const uri = 'untitled:ext';
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'humus', version: 1, text: 'DEF twice(n) AS add(n, n)\nSEND twice(1) TO println\n' },
    });
    let d = await diagnostics();
    assert.strictEqual(d.uri, uri);
    assert.deepStrictEqual(d.diagnostics, []);
    const hover = await connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 7 },
    });
    assert.match(hover.contents.value, /DEF twice\(n\) AS add\(n, n\)/);

    // The argument deleted, as one types: SEND twice(, 1) TO println
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 11 }, end: { line: 1, character: 12 } }, text: ', 1' }],
    });
    d = await diagnostics();
    assert.strictEqual(d.version, 2);
    assert.strictEqual(d.diagnostics.length, 1);
    assert.strictEqual(d.diagnostics[0].message, "expected ')' to close the '(' opened at 2:11");
    assert.deepStrictEqual(d.diagnostics[0].range.start, { line: 1, character: 11 });
    assert.strictEqual(d.diagnostics[0].severity, 1);

    assert.strictEqual(await connection.sendRequest('shutdown'), null);
    await connection.sendNotification('exit');
    assert.strictEqual(await exited, 0);
  } finally {
    connection.dispose();
    server.kill();
  }
});
