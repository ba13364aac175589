// Every Humus example in docs/ runs, so an example cannot rot (issue 19).
//
//   node doc_blocks_test.mjs HUMUS DOCS_DIR SCRATCH_DIR
//
// In a Markdown file, a fenced block whose info string is
//   humus           is run (as example.hum, one worker thread, from a folder of
//                   its own): it must exit 0, its standard output must be the
//                   ```output block that follows it (required; an empty one for
//                   an example that prints nothing), and its standard error the
//                   ```stderr block after that (none: nothing on stderr);
//   humus error     is run and must fail (a non-zero status); a ```stderr block
//                   after it, if any, is its standard error exactly;
//   humus fragment  is not run: a piece of a program (it names what it does not
//                   define), shown for its shape.
// Blocks just before a run `humus` block set up its folder:
//   input           is its standard input (else it reads none);
//   file NAME       is written to the file NAME beside it (scripts that read files).
// A block with no info string that looks like Humus code (a line starting
// with SEND, CREATE, DEF, LET, IMPORT or BECOME) is an error: say which of the
// three it is (or `text` for what only looks like code, such as diagnostics).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [humusArg, docsDir, scratch] = process.argv.slice(2);
const humus = humusArg && path.resolve(humusArg);
if (!humusArg || !docsDir || !scratch) {
  console.error("usage: node doc_blocks_test.mjs HUMUS DOCS_DIR SCRATCH_DIR");
  process.exit(2);
}

function markdownFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(p));
    else if (e.name.endsWith(".md")) out.push(p);
  }
  return out.sort();
}

// The fenced blocks of a Markdown text: { line, info, body }, the fence's
// indentation taken off the body's lines.
function blocks(text) {
  const lines = text.split("\n");
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) j++;
    const body = lines.slice(i + 1, j).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
    found.push({ line: i + 1, info: open[2].trim(), body: body.length ? body.join("\n") + "\n" : "" });
    i = j;
  }
  return found;
}

const looksLikeHumus = (body) => /^\s*(SEND|CREATE|DEF|LET|IMPORT|BECOME)\b/m.test(body);
let failures = 0, ran = 0;
const fail = (where, why) => {
  failures++;
  console.log(`FAIL ${where}: ${why}`);
};

fs.mkdirSync(scratch, { recursive: true });
for (const file of markdownFiles(docsDir)) {
  const rel = path.relative(path.dirname(docsDir), file);
  const bs = blocks(fs.readFileSync(file, "utf8"));
  bs.forEach((b, k) => {
    const where = `${rel}:${b.line}`;
    const [lang, mark] = b.info.split(/\s+/);
    if (!b.info && looksLikeHumus(b.body)) {
      fail(where, "a block of Humus code without an info string: write ```humus (run), ```humus fragment or ```text");
      return;
    }
    if (lang === "input" || lang === "file") {
      let j = k + 1;
      while (bs[j] && (bs[j].info === "input" || bs[j].info.startsWith("file "))) j++;
      if (!bs[j] || bs[j].info !== "humus") fail(where, `a \`\`\`${lang} block must come just before a \`\`\`humus block`);
      if (lang === "file" && !mark) fail(where, "a ```file block needs a name: ```file data.txt");
      return;
    }
    if (lang === "output" || lang === "stderr") {
      const prev = lang === "stderr" && bs[k - 1] && bs[k - 1].info === "output" ? bs[k - 2] : bs[k - 1];
      if (!prev || !prev.info.startsWith("humus") || prev.info === "humus fragment")
        fail(where, `a \`\`\`${lang} block must follow a \`\`\`humus block`);
      return;
    }
    if (lang !== "humus" || mark === "fragment") return;
    if (mark && mark !== "error") {
      fail(where, `unknown marker '${mark}' (humus, humus error, humus fragment)`);
      return;
    }
    const dir = path.join(scratch, `${rel.replace(/[\/.]/g, "_")}_${b.line}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "example.hum"), b.body);
    let input = "";
    for (let j = k - 1; j >= 0 && (bs[j].info === "input" || bs[j].info.startsWith("file ")); j--) {
      if (bs[j].info === "input") input = bs[j].body;
      else fs.writeFileSync(path.join(dir, bs[j].info.slice(5).trim()), bs[j].body);
    }
    const r = spawnSync(humus, ["--threads", "1", "example.hum"], { cwd: dir, input, encoding: "utf8", timeout: 60000 });
    ran++;
    const next = bs[k + 1];
    if (mark === "error") {
      if (r.status === 0) fail(where, "an example marked `humus error` exited 0");
      if (next && next.info === "stderr" && r.stderr !== next.body)
        fail(where, `standard error differs\n--- expected\n${next.body}--- got\n${r.stderr}---`);
      return;
    }
    if (r.status !== 0) fail(where, `exit status ${r.status}\n${r.stderr}`);
    if (!next || next.info !== "output") {
      fail(where, "no ```output block after it: give its expected output (empty if it prints nothing)");
      return;
    }
    if (r.stdout !== next.body) fail(where, `standard output differs\n--- expected\n${next.body}--- got\n${r.stdout}---`);
    const err = bs[k + 2] && bs[k + 2].info === "stderr" ? bs[k + 2].body : "";
    if (r.stderr !== err) fail(where, `standard error differs\n--- expected\n${err}--- got\n${r.stderr}---`);
  });
}
console.log(`${ran} examples run, ${failures} failures`);
process.exit(failures ? 1 : 0);
