// The playground in a real browser (docs/playground.md): headless Chromium
// (Debian's, through puppeteer-core) on the page as scripts/playground.sh
// builds and serves it. It types programs, clicks Run and Stop, and reads
// the page as a user would: output, the sequence diagram, an error's line
// and column, IMPORT of the standard library, the example menu, a share
// link, and Stop on endless loops (inside one event and across events).
//   node tests/web/playground_test.mjs <site dir> <source root> [screenshot.png]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const [site, root, screenshot] = process.argv.slice(2);
const chromium = process.env.HUMUS_CHROMIUM ?? '/usr/bin/chromium';
let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else { failed++; console.log(`FAIL ${what}${detail ? `\n  ${detail}` : ''}`); }
}

// The page's server, as scripts/playground.sh runs it, on a free port.
const server = spawn(process.execPath, [join(root, 'interpreter/web/serve.mjs'), site, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  server.stdout.on('data', (d) => { const m = /serving (\S+)/.exec(String(d)); if (m) resolve(m[1]); });
  server.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
});

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 60000 });

  const text = (sel) => page.$eval(sel, (e) => e.textContent);
  const state = () => page.evaluate(() => ({ status: document.getElementById('status').textContent, outcome: document.body.dataset.outcome }));
  // Replaces the editor's program by typing it, as a user would.
  async function typeProgram(program) {
    await page.click('#code');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.type('#code', program);
  }
  async function runAndWait(timeout = 30000) {
    await page.click('#run');
    await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout });
    return state();
  }

  // 1. The page as it opens: the isolation that lets Stop reach an endless event, the example menu.
  check(await page.evaluate(() => self.crossOriginIsolated), 'the page is cross-origin isolated (SharedArrayBuffer for Stop)');
  const menu = await page.$$eval('#examples option', (os) => os.map((o) => o.value));
  const scripts = JSON.parse(JSON.stringify(await page.evaluate(() => self.HUMUS_EXAMPLES.map((e) => e.name))));
  check(menu[0] === 'hello.hum' && menu.length === scripts.length && menu.length >= 5, 'the example menu lists scripts/*.hum, hello.hum first', menu.join(' '));
  check((await page.$eval('#code', (e) => e.value)) === readFileSync(join(root, 'scripts/hello.hum'), 'utf8'), 'the editor opens with hello.hum');
  check((await page.$$('#highlight .tok-keyword')).length > 3 && (await page.$$('#highlight .tok-comment')).length >= 2 &&
        (await page.$$('#highlight .tok-symbol')).length >= 2, 'the editor highlights keywords, comments and symbols');

  // 2. hello.hum: its output, and the same sequence diagram as humus --diagram draws.
  let s = await runAndWait();
  check(s.outcome === 'ok' && /^done/.test(s.status), 'hello.hum runs', JSON.stringify(s));
  check((await text('#output')) === readFileSync(join(root, 'scripts/hello.out'), 'utf8'), 'hello.hum prints what scripts/hello.out says', await text('#output'));
  const svg = await page.$eval('#diagram', (e) => e.innerHTML);
  const norm = (x) => x.replace(/<title>[^<]*<\/title>/g, '').replace(/>(scripts\/)?(program|hello)\.hum</g, '>NAME<').replace(/\/>/g, '>').replace(/<\/(path|rect|line|text|polyline|circle)>/g, '').trim();
  const cli = readFileSync(join(root, 'docs/images/hello-diagram.svg'), 'utf8');
  const [a, b] = [norm(svg), norm(cli)];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  check(a === b, 'the page draws the diagram humus --diagram draws for hello.hum (docs/images/hello-diagram.svg)',
        `first difference at ${at}:\n  page: ${a.slice(at - 100, at + 200)}\n  cli:  ${b.slice(at - 100, at + 200)}`);

  // 3. A typed program: actors, output, and its diagram (lifelines, arrows, labels).
  await typeProgram(`DEF pong AS \\(ping, n).[
  SEND (SELF, n) TO ping
]
DEF ping(count) AS \\(pong, n).[
  CASE n OF
  0 : [ SEND (#done, count) TO println ]
  _ : [
    SEND (#ping, n) TO println
    SEND (SELF, sub(n, 1)) TO pong
    BECOME ping(add(count, 1))
  ]
  END
]
CREATE p1 WITH pong
CREATE p2 WITH ping(0)
SEND (p2, 3) TO p1
`);
  s = await runAndWait();
  check(s.outcome === 'ok', 'the typed ping-pong program runs', JSON.stringify(s));
  check((await text('#output')) === '#ping, 3\n#ping, 2\n#ping, 1\n#done, 3\n', 'ping-pong prints four lines', await text('#output'));
  const diag = await page.$eval('#diagram svg', (e) => ({ text: e.textContent, arrows: e.querySelectorAll('line[marker-end], path[marker-end]').length }));
  check(/@\d+/.test(diag.text) && diag.text.includes('pong') && diag.text.includes('ping(0)'), 'the diagram names the actors and their behaviors', diag.text.slice(0, 200));
  check(diag.text.includes('#ping, 3') && diag.text.includes('#done, 3'), 'the diagram labels the arrows with the messages', diag.text.slice(0, 300));
  check(diag.arrows >= 9, 'the diagram has an arrow per message', String(diag.arrows));
  if (screenshot) await page.screenshot({ path: screenshot });

  // 4. A syntax error: reported with its line and column, the line marked in the editor, the link moves the caret.
  await typeProgram('CREATE a WITH \\x.[ SEND x TO println ]\nSEND 1 TO a\nLET y = (1, 2\n');
  s = await runAndWait();
  const out4 = await text('#output');
  check(s.outcome === 'compile-error' && /^not run/.test(s.status), 'a syntax error: not run', JSON.stringify(s));
  check(/^program\.hum:4:1: error: /m.test(out4) || /^program\.hum:3:\d+: error: /m.test(out4), 'the syntax error names its line and column', out4);
  const link = await page.$eval('#output a.diag', (a) => ({ line: a.dataset.line, column: a.dataset.column }));
  check(await page.$eval('#gutter', (g, l) => [...g.querySelectorAll('.error-line')].map((e) => e.textContent).includes(l), link.line),
        'the error line is marked in the editor', JSON.stringify(link));
  await page.click('#output a.diag');
  const caret = await page.$eval('#code', (c) => { const before = c.value.slice(0, c.selectionStart).split('\n'); return [before.length, before.at(-1).length + 1]; });
  check(caret[0] === Number(link.line) && caret[1] === Number(link.column), 'the error links to its line and column', JSON.stringify({ caret, link }));

  // 5. A compile error and a runtime error in an actor: both with line and column; the failed event in the diagram.
  await typeProgram('SEND 1 TO nobody\n');
  s = await runAndWait();
  check(s.outcome === 'compile-error' && /^program\.hum:1:11: error: 'nobody' is not defined/m.test(await text('#output')),
        'an undefined name: an error at 1:11 before anything runs', await text('#output'));
  await typeProgram('CREATE a WITH \\x.[\n  SEND x TO println\n  THROW (#too_big, x)\n]\nSEND 7 TO a\n');
  s = await runAndWait();
  const out5 = await text('#output');
  check(s.outcome === 'runtime-error' && /^program\.hum:3:\d+: runtime error in actor a@\d+: THROW #too_big, 7/m.test(out5) &&
        out5.includes('while handling message: 7') && !out5.startsWith('7'),
        'a runtime error in an actor names its line, column and message', out5);
  check(await page.$eval('#diagram svg', (e) => e.textContent.includes('✗')), 'the failed event is marked in the diagram');

  // 6. The standard library, IMPORTed.
  await typeProgram('IMPORT "queue"\nLET q = $fifo_put(fifo_put(fifo_empty, #a), #b)\nLET (x, q2) = $fifo_take(q)\nSEND (x, fifo_size(q2)) TO println\n');
  s = await runAndWait();
  check(s.outcome === 'ok' && (await text('#output')) === '#a, 1\n', 'IMPORT "queue" from the standard library', await text('#output'));

  // 7. A share link carries the program: opened in a new page, the editor holds it.
  const shared = '# λ, grüße: any text travels in the link\nDEF twice(x) AS add(x, x)\nSEND (#shared, twice(21)) TO println\n';
  await typeProgram(shared);
  await page.click('#share');
  const link7 = await page.$eval('#share-link', (e) => e.value);
  check(link7.startsWith(url) && /#code=[A-Za-z0-9_-]+$/.test(link7), 'Share puts the program in the address', link7);
  const other = await browser.newPage();
  await other.goto(link7);
  await other.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 60000 });
  check((await other.$eval('#code', (e) => e.value)) === shared, 'the shared link opens with the program', await other.$eval('#code', (e) => e.value));
  await other.click('#run');
  await other.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 30000 });
  check((await other.$eval('#output', (e) => e.textContent)) === '#shared, 42\n', 'the shared program runs', await other.$eval('#output', (e) => e.textContent));
  await other.close();

  // 8. Stop: an endless loop inside one event, then messages sent forever; the page comes back each time.
  for (const [what, program] of [
    ['an endless loop inside one event', 'DEF spin(n) AS spin(add(n, 1))\nCREATE a WITH \\x.[ SEND spin(0) TO println ]\nSEND 1 TO a\n'],
    ['an endless loop at the top level', 'DEF spin(n) AS spin(add(n, 1))\nSEND spin(0) TO println\n'],
    ['actors sending forever', 'CREATE a WITH \\(n).[ SEND (add(n, 1)) TO SELF ]\nSEND 0 TO a\n'],
  ]) {
    await typeProgram(program);
    await page.click('#run');
    await new Promise((r) => setTimeout(r, 1500));
    check((await state()).status === 'running' && !(await page.$eval('#stop', (b) => b.disabled)), `${what}: still running after 1.5 s`, JSON.stringify(await state()));
    const t0 = Date.now();
    await page.click('#stop');
    await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 10000 });
    const stopped = await state();
    check(stopped.outcome === 'stopped' && Date.now() - t0 < 2500, `${what}: Stop ends it within 2.5 s`, `${JSON.stringify(stopped)} after ${Date.now() - t0} ms`);
    check(!(await text('#output')).includes('restarted'), `${what}: stopped by the interpreter, not by ending the worker`, await text('#output'));
  }
  // After Stop the next run starts afresh.
  await typeProgram('SEND (#after, #stop) TO println\n');
  s = await runAndWait();
  check(s.outcome === 'ok' && (await text('#output')) === '#after, #stop\n', 'a run after Stop works', await text('#output'));

  check(pageErrors.length === 0, 'no errors in the page', pageErrors.join('\n'));
} finally {
  await browser.close();
  server.kill();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
