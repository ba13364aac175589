// The sequence diagram (`humus --diagram`, docs/trace.md) looked at as a
// person would: each picture is drawn by humus, rendered by headless
// Chromium and saved as a PNG, then measured. Whatever the number of actors
// it must be at most 2,000 px wide, and readable: lifeline headers that do
// not overlap and show a name that fits, no arrow through a header, no text
// over another or past the edge.
//   node tests/web/diagram_render_test.mjs <humus binary> <source root> <folder for the PNGs>
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const [humus, root, out] = process.argv.slice(2);
const chromium = process.env.HUMUS_CHROMIUM ?? '/usr/bin/chromium';
const kMaxWidth = 2000;
let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else { failed++; console.log(`FAIL ${what}${detail ? `\n  ${detail}` : ''}`); }
}
if (!existsSync(chromium)) {
  console.log(`FAIL no Chromium at ${chromium}: run scripts/setup.sh (or set HUMUS_CHROMIUM)`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });

// Each program, with names its picture must show and what else to expect.
const programs = [
  { name: 'hello', file: join(root, 'scripts/hello.hum'), names: ['top level', 'println@1', 'g@4'] },
  { name: 'team', file: join(root, 'tests/web/diagrams/team.hum'),
    names: ['boss@4', 'total@5', 'ann@6', 'fay@11', 'println@1'] },
  { name: 'crowd', file: join(root, 'tests/web/diagrams/crowd.hum'), names: ['println@1'], shared: true },
  { name: 'chain', file: join(root, 'tests/web/diagrams/chain.hum'), names: ['first@4'], shared: true, gap: true },
];

// A PNG's size, from its IHDR chunk.
function pngSize(file) {
  const b = readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  for (const p of programs) {
    const svgFile = join(out, `${p.name}.svg`), png = join(out, `${p.name}.png`);
    execFileSync(humus, ['--threads', '1', '--diagram', svgFile, p.file], { stdio: ['ignore', 'ignore', 'inherit'] });
    await page.setContent(`<!doctype html><html><body style="margin:0">${readFileSync(svgFile, 'utf8')}</body></html>`);
    const size = await page.$eval('svg', (s) => ({ width: s.width.baseVal.value, height: s.height.baseVal.value }));
    await page.setViewport({ width: Math.ceil(size.width), height: Math.min(Math.ceil(size.height), 16000) });
    await page.screenshot({ path: png });
    const shot = pngSize(png);
    check(shot.width === Math.ceil(size.width), `${p.name}: the PNG is as wide as the picture`, `${shot.width} vs ${size.width}`);
    check(shot.width <= kMaxWidth, `${p.name}: at most ${kMaxWidth} px wide`, `${shot.width} px`);

    // What the page drew, in its own coordinates.
    const drawn = await page.evaluate(() => {
      const box = (e) => { const b = e.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
      const lanes = [...document.querySelectorAll('rect.lane')].map(box);
      const names = [...document.querySelectorAll('text.name')].map((t) => ({ text: t.textContent, ...box(t) }));
      const arrows = [...document.querySelectorAll('line.msg, line.new')].map((l) => ({
        x1: l.x1.baseVal.value, y1: l.y1.baseVal.value, x2: l.x2.baseVal.value, y2: l.y2.baseVal.value,
        kind: l.getAttribute('class'),
      }));
      const texts = [...document.querySelectorAll('text')].map((t) => ({ text: t.textContent, ...box(t) }));
      return { lanes, names, arrows, texts, all: document.querySelector('svg').textContent };
    });
    check(drawn.lanes.length >= 2, `${p.name}: lifelines are drawn`, String(drawn.lanes.length));
    for (const n of p.names) check(drawn.names.some((t) => t.text === n), `${p.name}: a lifeline is headed ${n}`,
                                   drawn.names.map((t) => t.text).join(' | '));
    if (p.shared) check(drawn.names.some((t) => /\u00d7\d+$| others$/.test(t.text)), `${p.name}: actors share lanes`,
                        drawn.names.map((t) => t.text).join(' | '));
    if (p.gap) check(/\u22ee [\d,]+ more events like/.test(drawn.all), `${p.name}: repeated events are compressed`);

    const overlap = (a, b, m = 0) => a.x + m < b.x + b.w && b.x + m < a.x + a.w && a.y + m < b.y + b.h && b.y + m < a.y + a.h;
    const pairs = [];
    drawn.lanes.forEach((a, i) => drawn.lanes.slice(i + 1).forEach((b) => { if (overlap(a, b)) pairs.push([a, b]); }));
    check(pairs.length === 0, `${p.name}: no two lifeline headers overlap`, JSON.stringify(pairs.slice(0, 2)));
    // Each name inside its box, whole.
    const outside = drawn.names.filter((t) => !drawn.lanes.some((b) => t.x >= b.x && t.x + t.w <= b.x + b.w && t.y >= b.y && t.y + t.h <= b.y + b.h));
    check(drawn.names.length === drawn.lanes.length && outside.length === 0, `${p.name}: every header's name fits in its box`,
          JSON.stringify(outside.slice(0, 3)));
    // An arrow may end at a box's edge, not pass through one.
    const through = [];
    for (const a of drawn.arrows) {
      const seg = { x: Math.min(a.x1, a.x2), y: Math.min(a.y1, a.y2), w: Math.abs(a.x2 - a.x1) || 1, h: Math.abs(a.y2 - a.y1) || 1 };
      for (const b of drawn.lanes) if (overlap(seg, b, 1)) through.push({ a, b });
    }
    check(through.length === 0, `${p.name}: no arrow crosses a lifeline header`, JSON.stringify(through.slice(0, 2)));
    // Text: none past the right edge, none over another.
    const past = drawn.texts.filter((t) => t.x + t.w > size.width + 0.5);
    check(past.length === 0, `${p.name}: no text runs past the edge`, JSON.stringify(past.slice(0, 3)));
    const onTop = [];
    drawn.texts.forEach((a, i) => drawn.texts.slice(i + 1).forEach((b) => { if (overlap(a, b, 1)) onTop.push([a.text, b.text]); }));
    check(onTop.length === 0, `${p.name}: no text is written over another`, JSON.stringify(onTop.slice(0, 3)));
    console.log(`${p.name}: ${shot.width} x ${shot.height} px, ${drawn.lanes.length} lifelines -> ${png}`);
  }
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
