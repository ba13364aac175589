// Humus syntax highlighting for the playground's editor: the source split
// into tokens by the lexical rules of grammar/grammar.hpp (section 1 of the
// language), each wrapped in a <span class="tok-KIND">. Used by main.js and
// the browser test; it has no state and touches no page.
(function (global) {
  'use strict';
  const KEYWORDS = new Set(['LET', 'DEF', 'AS', 'IN', 'IF', 'ELIF', 'ELSE', 'CASE', 'OF', 'END', 'SEND', 'TO',
    'AFTER', 'CREATE', 'WITH', 'BECOME', 'THROW', 'NEW', 'SELF', 'IMPORT']);
  const CONSTANTS = new Set(['TRUE', 'FALSE', 'NIL', 'NOW']);
  // A run of identifier characters: not whitespace, punctuation, '"', '#', '$', a control character or λ.
  const IDENT = /[^\s#$(),.:;=[\\\]"\u0000-\u001f\u007fλ]+/y;
  const RULES = [
    // '#' then whitespace, '#' or the end: a comment to the end of the line.
    ['comment', /#(?=[\s#]|$)[^\n]*/y],
    ['symbol', /#[^\s#$(),.:;=[\\\]"\u0000-\u001f\u007fλ]+/y],
    ['string', /"(?:\\.|[^"\\])*"?/y],
    ['char', /'(?:\\.|[^'\\\n])'/y],
    ['number', /-?\d+(?:#[0-9A-Za-z]+)?(?![^\s#$(),.:;=[\\\]"\u0000-\u001f\u007fλ])/y],
    ['lambda', /[\\λ]/y],
    ['punct', /[$(),.:;=[\]]/y],
    ['space', /\s+/y],
  ];

  function escape(text) {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  // [kind, text] pairs covering all of `source`, in order.
  function tokens(source) {
    const out = [];
    let at = 0;
    outer: while (at < source.length) {
      for (const [kind, re] of RULES) {
        re.lastIndex = at;
        const m = re.exec(source);
        if (m && m[0].length) {
          out.push([kind, m[0]]);
          at += m[0].length;
          continue outer;
        }
      }
      IDENT.lastIndex = at;
      const m = IDENT.exec(source);
      if (m) {
        const word = m[0];
        out.push([KEYWORDS.has(word) ? 'keyword' : CONSTANTS.has(word) ? 'constant' : '_' === word || '?' === word ? 'constant' : 'ident', word]);
        at += word.length;
      } else {
        out.push(['error', source[at]]);
        at += 1;
      }
    }
    return out;
  }

  // The source as HTML, each token in a span (spaces and plain names as text).
  function highlight(source) {
    let html = '';
    for (const [kind, text] of tokens(source)) {
      html += kind === 'space' || kind === 'ident' ? escape(text) : `<span class="tok-${kind}">${escape(text)}</span>`;
    }
    return html;
  }

  global.HumusHighlight = { tokens, highlight, KEYWORDS };
})(self);
