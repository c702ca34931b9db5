// Pre-flight checks before npm publish.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const https = require('https');
const { execFileSync } = require('child_process');

const REGISTRY = 'registry.npmjs.org';

function npmToken() {
  const rc = path.join(os.homedir(), '.npmrc');
  if (!fs.existsSync(rc)) return null;
  const line = fs.readFileSync(rc, 'utf8').split('\n').find((l) => l.startsWith(`//${REGISTRY}/:_authToken=`));
  return line ? line.split('=').slice(1).join('=').trim() : null;
}

function get(pathname, token) {
  return new Promise((resolve) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    https
      .get({ hostname: REGISTRY, path: pathname, headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', () => resolve({ status: 0, body: '' }));
  });
}

async function main() {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const pack = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { encoding: 'utf8' }))[0];
  for (const f of pack.files) {
    if (/(^|\/)\.env|\.log$|\.map$/.test(f.path)) console.log(`should not ship: ${f.path}`);
  }
  const published = await get(`/${encodeURIComponent(pkg.name)}/${pkg.version}`);
  if (published.status === 200) console.log(`version ${pkg.version} is already published`);
  if (pkg.private) console.log('package.json has "private": true');
  const who = await get('/-/whoami', npmToken());
  console.log(who.status === 200 ? `logged in as ${JSON.parse(who.body).username}` : 'not logged in (npm login)');
}

main();
