// The TextMate grammar knows the words the interpreter knows: every keyword
// of grammar/grammar.hpp and every built-in of interpreter/lsp/builtins.cpp
// (which a unit test ties to the runtime's globals) is in one of its rules,
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
  const source = fs.readFileSync(path.join(root, 'interpreter', 'lsp', 'builtins.cpp'), 'utf8');
  const builtins = [...source.matchAll(/\{"([a-z_]+)",/g)].map((m) => m[1]).sort();
  assert.ok(builtins.length >= 20, 'built-ins found in builtins.cpp');
  assert.deepStrictEqual(words('builtin'), builtins);
});
