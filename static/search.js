// Site search: Pagefind finds candidates; this file orders them with the same tiers as the
// CLI (registry/search/rank.py and text.py), applies the squat gate, and renders results
// with DOM APIs only (no HTML from the index is ever inserted). The query lives in the URL.
const script = document.currentScript || document.querySelector("script[data-root][src$='search.js']");
const root = (script && script.getAttribute("data-root")) || "../";

const STOP_WORDS = new Set(("a an and are as at be by for from how i in is it me my of on or our please the " +
  "this to use using want we with you your").split(" "));
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

function typoBudget(word) { return word.length < 4 ? 0 : word.length < 8 ? 1 : 2; }

export function wordMatches(q, f) {
  if (q === f) return true;
  if (q.length >= 3 && f.startsWith(q)) return true;
  const shorter = Math.min(q.length, f.length);
  let common = 0;
  while (common < shorter && q[common] === f[common]) common++;
  if (shorter >= 4 && common >= Math.max(4, shorter - 2)) return true;
  const budget = typoBudget(q);
  return budget > 0 && distance(q, f, budget) <= budget;
}

export function tierOf(rawQuery, query, c) {
  const normalised = words(rawQuery).join(" ");
  if (normalised && (normalised === words(c.name).join(" ") || rawQuery.trim().toLowerCase() === c.id)) {
    return { tier: [0, 0, 0, 0], matched: Object.fromEntries(query.map((w) => [w, "name"])) };
  }
  const fields = [c.nameWords, c.tagWords, c.descriptionWords, c.bodyWords];
  const matched = {};
  for (const w of query) {
    for (let i = 0; i < fields.length; i++) {
      if (fields[i].some((f) => wordMatches(w, f))) { matched[w] = FIELDS[i]; break; }
    }
  }
  const missing = query.length - Object.keys(matched).length;
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

function candidateFrom(data, score) {
  const meta = data.meta || {};
  const content = data.content || "";
  return {
    id: meta.id || "",
    name: meta.title || "",
    tier: meta.tier || "community",
    risk: meta.risk || "low",
    updated: meta.updated || "",
    nameWords: words(meta.title),
    tagWords: words(meta.tags),
    descriptionWords: words(content),
    bodyWords: [],
    score: score || 0,
    url: data.url,
    content,
  };
}

function highlighted(text, query, limit) {
  // Text nodes and <mark> elements only: skill text never becomes markup.
  const fragment = document.createDocumentFragment();
  const shown = text.length > limit ? text.slice(0, limit - 1) + "…" : text;
  const parts = shown.split(/([A-Za-z0-9]+)/);
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (part && /[a-z0-9]/i.test(part) && query.some((w) => wordMatches(w, lower))) {
      const mark = document.createElement("mark");
      mark.textContent = part;
      fragment.appendChild(mark);
    } else if (part) {
      fragment.appendChild(document.createTextNode(part));
    }
  }
  return fragment;
}

const FIELD_LABEL = { name: "name", tags: "tags or category", description: "description", body: "instructions" };

async function main() {
  const form = document.querySelector("[data-search-form]");
  const list = document.querySelector("[data-search-results]");
  const status = document.querySelector("[data-search-status]");
  if (!form || !list) return;
  const input = form.querySelector("input[type=search]");
  const selects = { category: form.querySelector("#search-category"), tier: form.querySelector("#search-tier"),
    risk: form.querySelector("#search-risk"), dialect: form.querySelector("#search-dialect") };
  form.querySelectorAll("[data-needs-js]").forEach((el) => { el.hidden = false; });

  let pagefind;
  try {
    pagefind = await import(root + "pagefind/pagefind.js");
    await pagefind.options({ baseUrl: new URL(root, window.location.href).pathname, excerptLength: 30 });
    await pagefind.init();
    const filters = await pagefind.filters();
    for (const [key, select] of [["category", selects.category], ["dialect", selects.dialect]]) {
      Object.keys(filters[key] || {}).sort().forEach((value) => {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = value + " (" + filters[key][value] + ")";
        select.appendChild(option);
      });
    }
  } catch (error) {
    status.textContent = "Search could not load; browse all skills instead.";
    return;
  }

  const params = new URLSearchParams(window.location.search);
  input.value = params.get("q") || "";
  for (const [key, select] of Object.entries(selects)) {
    if (params.get(key)) select.value = params.get(key);
  }

  let generation = 0;
  async function run(pushUrl) {
    const raw = input.value.trim();
    const current = ++generation;
    const filters = {};
    for (const [key, select] of Object.entries(selects)) if (select.value) filters[key] = select.value;
    if (pushUrl) {
      const next = new URLSearchParams();
      if (raw) next.set("q", raw);
      for (const [key, value] of Object.entries(filters)) next.set(key, value);
      const query = next.toString();
      const target = query ? "?" + query : window.location.pathname;
      if (target !== window.location.search) window.history.pushState(null, "", target);
    }
    if (!raw) { list.replaceChildren(); status.textContent = ""; return; }
    const started = performance.now();
    const terms = queryWords(raw);
    // Ask Pagefind for each word with a prefix wildcard-free query and the whole query, so
    // exact names, prefixes and typos all reach the ranking step.
    const searches = await Promise.all([raw, ...terms].map((q) => pagefind.search(q, { filters })));
    if (current !== generation) return;
    const seen = new Map();
    for (const search of searches) {
      for (const result of search.results.slice(0, 40)) {
        if (!seen.has(result.id)) seen.set(result.id, result);
      }
    }
    const loaded = await Promise.all([...seen.values()].map(async (r) => candidateFrom(await r.data(), r.score)));
    if (current !== generation) return;
    const ranked = rank(raw, loaded).slice(0, 20);
    render(ranked, terms);
    const ms = Math.round(performance.now() - started);
    status.textContent = ranked.length ? ranked.length + " results (" + ms + " ms)" : "No skill matches. Try fewer words, or browse all skills.";
  }

  function render(ranked, terms) {
    list.replaceChildren();
    ranked.forEach((r, index) => {
      const item = document.createElement("li");
      item.className = "result";
      const link = document.createElement("a");
      link.href = r.c.url;
      link.className = "result-title";
      link.appendChild(highlighted(r.c.name, terms, 80));
      link.setAttribute("data-result-index", String(index));
      const id = document.createElement("span");
      id.className = "card-id";
      id.textContent = " " + r.c.id;
      const badge = document.createElement("span");
      badge.className = "badge tier-" + r.c.tier;
      badge.textContent = r.c.tier;
      const risk = document.createElement("span");
      risk.className = "badge risk-" + r.c.risk;
      risk.textContent = "risk: " + r.c.risk;
      const heading = document.createElement("h2");
      heading.append(link, id);
      const text = document.createElement("p");
      text.appendChild(highlighted(r.c.content.replace(r.c.name, "").replace(r.c.id, "").replace(/^[\s.·-]+/, ""), terms, 240));
      const why = document.createElement("p");
      why.className = "muted why";
      why.textContent = "Matched in " + [...new Set(Object.values(r.matched).map((f) => FIELD_LABEL[f]))].join(", ") +
        (r.tier[0] === 0 ? " (exact name)" : "");
      const meta = document.createElement("p");
      meta.className = "card-meta";
      meta.append(badge, " ", risk);
      item.append(heading, text, meta, why);
      list.appendChild(item);
    });
  }

  let timer;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => run(true), 60); });
  Object.values(selects).forEach((select) => select.addEventListener("change", () => run(true)));
  form.addEventListener("submit", (event) => { event.preventDefault(); run(true); });
  window.addEventListener("popstate", () => {
    const p = new URLSearchParams(window.location.search);
    input.value = p.get("q") || "";
    for (const [key, select] of Object.entries(selects)) select.value = p.get(key) || "";
    run(false);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") {
      const first = list.querySelector("a.result-title");
      if (first) { event.preventDefault(); first.focus(); }
    }
  });
  list.addEventListener("keydown", (event) => {
    const links = [...list.querySelectorAll("a.result-title")];
    const index = links.indexOf(document.activeElement);
    if (index === -1) return;
    if (event.key === "ArrowDown" && index + 1 < links.length) { event.preventDefault(); links[index + 1].focus(); }
    if (event.key === "ArrowUp") { event.preventDefault(); (index === 0 ? input : links[index - 1]).focus(); }
  });
  window.__skillSearch = async (q) => { input.value = q; await run(false); return [...list.querySelectorAll("a.result-title")].map((a) => a.getAttribute("href")); };
  if (input.value) run(false);
}

main();
