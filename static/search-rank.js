// Search ranking without the DOM: the same tiers as registry/search/rank.py and text.py.
// tests/search/test_index_and_cli.py runs this file in Node and checks it orders like the CLI;
// tests/search/test_stem_parity.py checks porter2.js stems every corpus word as the CLI's PyStemmer does.
import { stem as porter2 } from "./porter2.js";

const STOP_WORDS = new Set(("a about am an and are as at be been but by can could did do does for from has have how " +
  "i if in into is it its me my of on or our out over please so than that the their them then there they this to " +
  "up us use using want was we were with would you your").split(" "));
const SOFT_WORDS = new Set(("all any best can create do find get give good help just make need new now put really " +
  "right should show some today what when where which why will write").split(" "));
const TIER_ORDER = { official: 0, verified: 1, community: 2 };
const RISK_ORDER = { low: 0, medium: 1, high: 2, critical: 3 };
const FIELDS = ["name", "tags", "description", "body"];

export function words(text) {
  const split = String(text || "").replace(/([a-z])([A-Z])/g, "$1 $2");
  const folded = split.normalize("NFKD").replace(/[^\x00-\x7f]/g, "").toLowerCase();
  return folded.match(/[a-z0-9]+/g) || [];
}

export function queryWords(query) {
  const all = words(query);
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length ? kept : all;
}

function distance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2 = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], previous2[j - 2] + 1);
      }
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length];
}

function typoBudget(word) { return word.length < 5 ? 0 : word.length < 9 ? 1 : 2; }

// As text.py's doubled_letter_apart: skil ~ skill, comit ~ commit.
function doubledLetterApart(q, f) {
  if (q.length < 4 || Math.abs(q.length - f.length) !== 1) return false;
  const [shorter, longer] = q.length < f.length ? [q, f] : [f, q];
  for (let i = 1; i < longer.length; i++) {
    if (longer[i] === longer[i - 1] && longer.slice(0, i) + longer.slice(i + 1) === shorter) return true;
  }
  return false;
}

// A page stems the same few thousand words again on every keystroke.
const stems = new Map();
export function stem(word) {
  let found = stems.get(word);
  if (found === undefined) {
    found = porter2(word);
    stems.set(word, found);
  }
  return found;
}

export function wordMatches(q, f, typing = false, typos = true) {
  if (q === f || f === q + "s" || f === q + "es" || stem(q) === stem(f)) return true;
  if (typing && q.length >= 3 && f.startsWith(q)) return true;
  if (!typos) return false;
  const budget = typoBudget(q);
  if (budget > 0 && distance(q, f, budget) <= budget) return true;
  return doubledLetterApart(q, f);
}

export function tierOf(rawQuery, query, c) {
  const normalised = words(rawQuery).join(" ");
  if (normalised && (normalised === words(c.name).join(" ") || rawQuery.trim().toLowerCase() === c.id)) {
    return { tier: [0, 0, 0, 0], matched: Object.fromEntries(query.map((w) => [w, "name"])) };
  }
  const fields = [c.nameWords, c.tagWords, c.descriptionWords, c.bodyWords];
  const matched = {};
  query.forEach((w, position) => {
    const typing = position === query.length - 1;
    // A typo only for a word the skill has nowhere, not even stemmed (as rank.py's match_fields).
    for (const typos of [false, true]) {
      const i = fields.findIndex((words) => words.some((f) => wordMatches(w, f, typing, typos)));
      if (i !== -1) { matched[w] = FIELDS[i]; break; }
    }
  });
  const missing = query.filter((w) => !(w in matched) && !SOFT_WORDS.has(w)).length;
  const levels = Object.values(matched).map((f) => FIELDS.indexOf(f));
  const level = levels.length ? Math.max(...levels) : FIELDS.length;
  return { tier: [1, missing, level, missing ? levels.reduce((a, b) => a + b, 0) : 0], matched };
}

function compareTuples(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

export function rank(rawQuery, candidates) {
  const query = queryWords(rawQuery);
  const ranked = [];
  for (const c of candidates) {
    const { tier, matched } = tierOf(rawQuery, query, c);
    if (!Object.keys(matched).length) continue;
    ranked.push({ c, tier, matched });
  }
  ranked.sort((x, y) => compareTuples(x.tier, y.tier)
    || (TIER_ORDER[x.c.tier] ?? 3) - (TIER_ORDER[y.c.tier] ?? 3)
    || (RISK_ORDER[x.c.risk] ?? 4) - (RISK_ORDER[y.c.risk] ?? 4)
    || (x.c.updated ? 0 : 1) - (y.c.updated ? 0 : 1) || (y.c.updated > x.c.updated ? 1 : y.c.updated < x.c.updated ? -1 : 0)
    || y.c.score - x.c.score
    || (x.c.id < y.c.id ? -1 : x.c.id > y.c.id ? 1 : 0));
  return squatGate(ranked);
}

export function squatGate(ranked) {
  const result = ranked.slice();
  const trusted = new Set(ranked.filter((r) => r.c.tier !== "community").map((r) => r.c.name));
  let i = 0;
  while (i < result.length) {
    const item = result[i];
    if (item.c.tier === "community" && trusted.has(item.c.name)) {
      let last = -1;
      for (let j = i + 1; j < result.length; j++) {
        if (result[j].c.name === item.c.name && result[j].c.tier !== "community") last = j;
      }
      if (last !== -1) { result.splice(i, 1); result.splice(last, 0, item); continue; }
    }
    i++;
  }
  return result;
}

