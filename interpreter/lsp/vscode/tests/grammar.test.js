// The TextMate grammar knows the words the interpreter knows: every keyword
// of grammar/grammar.hpp and every built-in of the runtime's tables
// (runtime/builtins/, which the server's hover reads) is in one of its rules,
// and nothing more.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..', '..', '..');
const grammar = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'syntaxes', 'humus.tmLanguage.json'), 'utf8'));

// The words of the alternation in each rule of a repository entry.
function words(entry) {
  const out = [];
  for (const rule of grammar.repository[entry].patterns) {
    const m = /\(\?:([^()]*)\)/.exec(rule.match);
    if (m) out.push(...m[1].split('|').map((w) => w.replace(/\\/g, '')));
  }
  return out.sort();
}

test('every keyword of the parser, and only those, is a keyword or a constant', () => {
  const source = fs.readFileSync(path.join(root, 'grammar', 'grammar.hpp'), 'utf8');
  const keywords = [...source.matchAll(/keyword_t< TAO_PEGTL_STRING\( "([A-Z]+)" \) >/g)].map((m) => m[1]);
  assert.ok(keywords.length >= 24, 'keywords found in grammar.hpp');
  const known = [...words('keyword'), ...words('constant')].filter((w) => /^[A-Z]+$/.test(w)).sort();
  assert.deepStrictEqual(known, keywords.sort());
});

test('every built-in the language server documents is highlighted as one', () => {
  // The runtime's tables (runtime/builtins/) are what the server's hover reads.
  const dir = path.join(root, 'runtime', 'builtins');
  const functions = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpp')).sort()) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    functions.push(...[...source.matchAll(/\b(?:one|two<\w+>)\(\s*"([a-z_]+)"/g)].map((m) => m[1]));
  }
  const devices = fs.readFileSync(path.join(dir, 'devices.cpp'), 'utf8');
  const actors = [...devices.matchAll(/\{"([a-z_]+)",/g)].map((m) => m[1]);
  assert.ok(functions.length >= 40, 'built-in functions found in runtime/builtins/');
  assert.ok(actors.length >= 8, 'built-in actors found in runtime/builtins/devices.cpp');
  assert.deepStrictEqual(words('builtin'), [...functions, ...actors, 'cluster'].sort());
});
