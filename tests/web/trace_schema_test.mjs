// The JSON trace against its schema (docs/trace.schema.json): every line that
// `humus --trace=json` writes for a few programs must validate, the message
// ids must tie each handled message to one earlier send, and lines that
// break the schema's rules must be rejected (so the schema says something).
//   node tests/web/trace_schema_test.mjs <humus binary> <source root>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';

const [humus, root] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(join(root, 'docs/trace.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true }).compile(schema);
let passed = 0, failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else { failed++; console.log(`FAIL ${what}`); }
};

// Every kind of event: top-level statements, sends, creations, BECOME,
// a failure, an unhandled message, delayed sends, the timer actor.
const dir = mkdtempSync(join(tmpdir(), 'humus-trace-'));
const kinds = join(dir, 'kinds.hum');
writeFileSync(kinds, `
DEF counter(n) AS \\(cust, k).[
  CASE k OF
  0 : [ SEND n TO cust ]
  _ : [
    CREATE child WITH counter(add(n, 1))
    SEND (cust, sub(k, 1)) TO child
    BECOME counter(add(n, k))
  ]
  END
]
SEND (println, 3) TO NEW counter(0)
CREATE bad WITH \\m.[ THROW (#oops, m) ]
SEND "a string \\"quoted\\"\\n" TO bad
CREATE picky WITH \\(#only, x).[ SEND x TO println ]
SEND #other TO picky
AFTER 5 SEND (#only, #late) TO picky
SEND (10, (#only, #timer), picky) TO timer
`);

function trace(args) {
  try {
    return execFileSync(humus, [...args, '--trace=json', '--trace-file', join(dir, 't.jsonl')],
                        { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  } catch (e) { /* a runtime error exits 1: the trace is still complete */ }
  finally { return readFileSync(join(dir, 't.jsonl'), 'utf8'); }
}

const runs = {
  'scripts/hello.hum': ['--threads', '1', 'scripts/hello.hum'],
  'kinds.hum': ['--threads', '1', kinds],
  'scripts/fibonacci.hum (2 workers)': ['--threads', '2', 'scripts/fibonacci.hum'],
  'scripts/serializer_queue.hum (2 workers)': ['--threads', '2', 'scripts/serializer_queue.hum'],
  // One event that makes 3,000 actors and sends each a message: its line
  // lists 2,000 of each (a million sends wrote a 40 MB line: issue 34, item 8).
  'fan-out of 3,000 (-e)': ['--threads', '1', '-e', `DEF sink AS \\_.[ ]
DEF fan(n) AS IF $n = 0 [] ELSE [
  SEND n TO NEW sink
  fan(sub(n, 1))
]
SEND 3000 TO NEW \\n.[ fan(n) ]`],
};
const seen = new Set();
for (const [name, args] of Object.entries(runs)) {
  const lines = trace(args).split('\n').filter((l) => l !== '');
  check(lines.length > 0, `${name}: some events`);
  const sent = new Map(), handled = new Set(), names = new Map();
  let ordered = true, linked = true, named = true;
  // Every mention of an actor carries the same CREATE name (or none).
  const nameOf = (id, name) => {
    if (!names.has(id)) names.set(id, name);
    else if (names.get(id) !== name) named = false;
  };
  lines.forEach((line, i) => {
    const e = JSON.parse(line);
    if (!validate(e)) check(false, `${name} line ${i + 1}: ${JSON.stringify(validate.errors)}\n  ${line}`);
    else passed++;
    if (e.event !== i + 1) ordered = false;
    seen.add(e.outcome);
    if (e.after_ms !== undefined) seen.add('delayed');
    if (e.actor === null) seen.add('top level');
    if (e.created.length) seen.add('created');
    if (e.become !== null) seen.add('become');
    if (e.actor !== null) {
      // A send past the record's list (sent_omitted) is known by its id and sender only.
      const s = sent.get(e.message_id);
      if (!s || (s.to !== undefined && s.to !== e.actor) || handled.has(e.message_id) || s.from !== e.from) linked = false;
      handled.add(e.message_id);
    }
    for (const s of e.sent) sent.set(s.id, { to: s.to, from: e.actor });
    if (e.sent_omitted) {
      seen.add('omitted');
      if (e.sent.length !== 2000 || e.sent_omitted.last_id - e.sent_omitted.first_id + 1 !== e.sent_omitted.count)
        check(false, `${name} line ${i + 1}: sent_omitted does not follow 2,000 entries with consecutive ids`);
      for (let id = e.sent_omitted.first_id; id <= e.sent_omitted.last_id; id++) sent.set(id, { from: e.actor });
    }
    if (e.created_omitted) seen.add('created omitted');
    if (line.length > 1_000_000) check(false, `${name} line ${i + 1}: ${line.length} bytes, more than 1 MB`);
    if (e.actor !== null) nameOf(e.actor, e.name);
    if (e.from) nameOf(e.from, e.from_name);
    for (const s of e.sent) nameOf(s.to, s.to_name);
    for (const c of e.created) nameOf(c.actor, c.name);
    if (e.name !== undefined) seen.add('named');
  });
  check(named, `${name}: every mention of an actor has the same name`);
  check(ordered, `${name}: events numbered 1, 2, 3, ...`);
  check(linked, `${name}: each handled message was sent once before, to that actor, by its 'from'`);
}
for (const kind of ['committed', 'failed', 'unhandled', 'delayed', 'top level', 'created', 'become', 'named', 'omitted',
                    'created omitted'])
  check(seen.has(kind), `the runs had an event that is ${kind}`);

// Lines the schema must refuse.
const good = {
  event: 2, time_us: 10, duration_us: 1, worker: 0, actor: 4, behavior: 'b', message_id: 1, from: null,
  message: '#m', sent: [], created: [], become: null, outcome: 'committed',
};
check(validate(good), 'a well-formed event is accepted');
const named = { ...good, name: 'g', from: 5, from_name: 'h', sent: [{ id: 3, to: 6, to_name: 'k', message: '#x' }],
                created: [{ actor: 7, name: 'm', behavior: 'b' }] };
check(validate(named), 'an event naming its actors is accepted', JSON.stringify(validate.errors));
const top = { event: 1, time_us: 0, duration_us: 0, worker: null, actor: null, statement: { file: 'f', line: 1, column: 1 },
              sent: [], created: [], become: null, outcome: 'committed' };
check(validate(top), 'a top-level event is accepted');
const bad = {
  'no outcome': { ...good, outcome: undefined },
  'an unknown outcome': { ...good, outcome: 'maybe' },
  'failed without an error': { ...good, outcome: 'failed' },
  'an error on a committed event': { ...good, error: { message: 'x' } },
  'an actor event without its message': { ...good, message: undefined },
  'a top-level event with a message': { ...good, actor: null, statement: { file: 'f', line: 1, column: 1 } },
  'a send without a target': { ...good, sent: [{ id: 3, message: '#x' }] },
  'a name on a top-level event': { ...top, name: 'g' },
  'a sender\'s name without a sender': { ...good, from_name: 'g' },
  'an empty name': { ...good, name: '' },
  'a created actor\'s name that is not a string': { ...good, created: [{ actor: 5, behavior: 'b', name: 5 }] },
  'an unknown field': { ...good, colour: 'red' },
  'a negative time': { ...good, time_us: -1 },
  'a message longer than the cut': { ...good, message: 'x'.repeat(204) },
};
for (const [what, e] of Object.entries(bad)) {
  const copy = JSON.parse(JSON.stringify(e));
  check(!validate(copy), `the schema refuses ${what}`);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
