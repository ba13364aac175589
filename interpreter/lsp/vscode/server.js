// How the extension starts the language server: `humus --lsp` on standard
// input and output (docs/editors.md). Apart from extension.js so that the
// test (tests/extension.test.js) can run it without VS Code.
'use strict';

// `config` is the "humus" section of the settings (anything with get(key, default)).
function serverOptions(config) {
  return {
    command: config.get('server.path', 'humus'),
    args: ['--lsp', '--log-level', config.get('server.logLevel', 'warn')],
  };
}

module.exports = { serverOptions };
