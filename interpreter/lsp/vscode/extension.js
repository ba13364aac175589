// The Humus extension for VS Code: the grammar and language settings come
// from package.json; this starts the language server, `humus --lsp`, and
// starts it again when its settings change.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { serverOptions } = require('./server');

let client;

function start() {
  const config = vscode.workspace.getConfiguration('humus');
  client = new LanguageClient('humus', 'Humus', serverOptions(config), {
    documentSelector: [{ language: 'humus' }],
  });
  return client.start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration('humus.server')) return;
      if (client) await client.stop();
      await start();
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
