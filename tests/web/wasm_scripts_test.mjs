// The WebAssembly build against the native one's expectations: every script
// of tests/scripts, tests/errors, tests/stdlib and scripts/ with a .out file
// runs through the playground's module (under node, as the page's worker
// runs it) and must print the same output and diagnostics and end with the
// same status. Skipped: scripts with command-line options (.args), standard
// input (.stdin) or files of their own to IMPORT (not in the module's files).
//   node tests/web/wasm_scripts_test.mjs <build-wasm/humus.js> <source root>
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [modulePath, root] = process.argv.slice(2);
globalThis.self = globalThis;
let out = '', err = '';
self.humusOut = (t) => { out += t; };
self.humusErr = (t) => { err += t; };
// A script that runs past its deadline is stopped (as Stop in the page would) and fails.
const kDeadlineMs = 30000;
let deadline = Infinity;
self.humusStopRequested = () => Date.now() > deadline;
const HumusModule = createRequire(import.meta.url)(modulePath);
const M = await HumusModule();

// Outcomes of humus_start/humus_outcome, as the humus command's exit statuses.
const kStatus = { 0: 0, 1: 1, 2: 2, 3: 3 };
function run(code, name) {
  out = '';
  err = '';
  deadline = Date.now() + kDeadlineMs;
  if (M.ccall('humus_start', 'number', ['array', 'number', 'string'], [code, code.length, name]) !== 2) {
    for (let s; (s = M.ccall('humus_step', 'number', ['number'], [100])) !== -1;) {
      if (self.humusStopRequested()) M.ccall('humus_stop', null, [], []);
      else if (s >= 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(s, deadline - Date.now()));  // a timer: sleep
    }
  }
  return { out, err, status: kStatus[M.ccall('humus_outcome', 'number', [], [])] };
}

let passed = 0, failed = 0, skipped = 0;
for (const folder of ['tests/scripts', 'tests/errors', 'tests/stdlib', 'scripts']) {
  for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith('.hum')).sort()) {
    const base = join(root, folder, file.slice(0, -4));
    if (!existsSync(`${base}.out`)) continue;
    const code = readFileSync(`${base}.hum`);  // bytes: some tests are not valid UTF-8
    if (existsSync(`${base}.args`) || existsSync(`${base}.stdin`) || /IMPORT\s+"[^"]*(\/|\.hum")/.test(code.toString('latin1'))) {
      skipped++;
      continue;
    }
    const want = {
      out: readFileSync(`${base}.out`, 'utf8'),
      err: existsSync(`${base}.err`) ? readFileSync(`${base}.err`, 'utf8') : '',
      status: existsSync(`${base}.status`) ? Number(readFileSync(`${base}.status`, 'utf8').trim()) : 0,
    };
    const t0 = Date.now();
    const got = run(code, file);
    if (process.env.HUMUS_VERBOSE || Date.now() - t0 > 5000) console.log(`${folder}/${file}: ${Date.now() - t0} ms`);
    if (got.out === want.out && got.err === want.err && got.status === want.status) {
      passed++;
    } else {
      failed++;
      console.log(`FAIL ${folder}/${file}: status ${got.status} (want ${want.status})`);
      if (got.out !== want.out) console.log(`  stdout: ${JSON.stringify(got.out.slice(0, 300))}\n  want:   ${JSON.stringify(want.out.slice(0, 300))}`);
      if (got.err !== want.err) console.log(`  stderr: ${JSON.stringify(got.err.slice(0, 300))}\n  want:   ${JSON.stringify(want.err.slice(0, 300))}`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed || !passed ? 1 : 0);
