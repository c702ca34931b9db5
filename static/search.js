// Site search: Pagefind finds candidates; this file orders them with the same tiers as the
// CLI (registry/search/rank.py and text.py), applies the squat gate, and renders results
// with DOM APIs only (no HTML from the index is ever inserted). The query lives in the URL.
import { queryWords, rank, wordMatches, words } from "./search-rank.js";

const script = document.currentScript || document.querySelector("script[data-root][src$='search.js']");
const root = (script && script.getAttribute("data-root")) || "../";

function accepts(candidate, filters) {
  return (!filters.category || candidate.category === filters.category)
    && (!filters.tier || candidate.tier === filters.tier)
    && (!filters.risk || candidate.risk === filters.risk)
    && (!filters.dialect || candidate.dialects.includes(filters.dialect));
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
    category: meta.category || "",
    dialects: (meta.dialects || "").split(" ").filter(Boolean),
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
  } catch (error) {
    status.textContent = "Search could not load; browse all skills instead.";
    return;
  }

  const params = new URLSearchParams(window.location.search);
  if (params.has("q")) input.value = params.get("q");
  for (const [key, select] of Object.entries(selects)) {
    if (params.get(key)) select.value = params.get(key);
  }

  // Pagefind has no typo tolerance: the token shards built for agents (search/tokens/) hold every
  // indexed word by its first two letters, so a misspelt word is mapped to the words it may mean.
  const shards = new Map();
  async function corrections(word) {
    if (word.length < 5) return [];
    const key = word.slice(0, 2);
    if (!shards.has(key)) {
      shards.set(key, fetch(root + "search/tokens/" + encodeURIComponent(key) + ".json")
        .then((r) => (r.ok ? r.json() : {})).catch(() => ({})));
    }
    const shard = await shards.get(key);
    if (shard[word]) return [];
    return Object.keys(shard).filter((token) => wordMatches(word, token))
      .sort((a, b) => shard[b].length - shard[a].length).slice(0, 3);
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
    // Ask Pagefind for the whole query, each word, and the corrections of misspelt words, so
    // exact names, prefixes and typos all reach the ranking step.
    const fixes = (await Promise.all(terms.map(corrections))).flat();
    const searches = await Promise.all([raw, ...terms, ...fixes].map((q) => pagefind.search(q)));
    if (current !== generation) return;
    const seen = new Map();
    for (const search of searches) {
      for (const result of search.results.slice(0, 40)) {
        if (!seen.has(result.id)) seen.set(result.id, result);
      }
    }
    const loaded = await Promise.all([...seen.values()].map(async (r) => candidateFrom(await r.data(), r.score)));
    if (current !== generation) return;
    const ranked = rank(raw, loaded.filter((c) => accepts(c, filters))).slice(0, 20);
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
  form.setAttribute("data-ready", "true");
  if (input.value) run(!params.has("q"));
}

main();
