// The search page: static/search-rank.js reads the site's search shards and ranks as the CLI does; this
// file keeps the query in the URL and renders results with DOM APIs only (skill text never becomes markup).
import { createSource, queryWords, search, stemKey, wordMatches } from "./search-rank.js";

const script = document.currentScript || document.querySelector("script[data-root][src$='search.js']");
const root = (script && script.getAttribute("data-root")) || "../";
const RESULTS = 20;
const FIELD_LABEL = {
  name: "name", tags: "tags or category", description: "description", meta: "headings, tools or inputs",
  body: "instructions",
};
const NO_MATCH = "No skill matches. Try fewer words, or browse all skills.";

function marker(terms, result) {
  // The index words a result was found through (a typo's correction, a prefix's completion) are marked too.
  const found = new Set(Object.values(result.matches).map((m) => stemKey(m.via)));
  const last = terms.length - 1;
  return (word) => found.has(stemKey(word)) || terms.some((w, i) => wordMatches(w, word, i === last));
}

function highlighted(text, marks, limit) {
  // Text nodes and <mark> elements only.
  const fragment = document.createDocumentFragment();
  const shown = text.length > limit ? text.slice(0, limit - 1) + "…" : text;
  for (const part of shown.split(/([A-Za-z0-9]+)/)) {
    if (!part) continue;
    if (/[A-Za-z0-9]/.test(part) && marks(part.toLowerCase())) {
      const mark = document.createElement("mark");
      mark.textContent = part;
      fragment.appendChild(mark);
    } else {
      fragment.appendChild(document.createTextNode(part));
    }
  }
  return fragment;
}

// Only what the ranking recorded: the fields each word was found in and how it was reached ("slides → powerpoint
// in name (synonym)": the expansion the ranking used, as the CLI's "why" line says it).
function whyLine(result) {
  const parts = [];
  for (const [word, match] of Object.entries(result.matches)) {
    // Fields reached the same way through the same index word share one phrase.
    const groups = new Map();
    for (const { field, how, via } of match.fields) {
      const said = (via === word ? word : word + " → " + via) + "\u0000" + how;
      groups.set(said, [...(groups.get(said) || []), FIELD_LABEL[field] || field]);
    }
    for (const [said, labels] of groups) {
      const [shown, how] = said.split("\u0000");
      parts.push(shown + " in " + labels.join(", ") + " (" + how + ")");
    }
  }
  const lead = result.exact ? "Exact name or id" : "";
  if (!parts.length) return lead;
  return (lead ? lead + ". " : "") + "Matched: " + parts.join(" · ");
}

function main() {
  const form = document.querySelector("[data-search-form]");
  const list = document.querySelector("[data-search-results]");
  const status = document.querySelector("[data-search-status]");
  if (!form || !list) return;
  const input = form.querySelector("input[type=search]");
  const selects = { category: form.querySelector("#search-category"), tier: form.querySelector("#search-tier"),
    risk: form.querySelector("#search-risk"), dialect: form.querySelector("#search-dialect") };
  form.querySelectorAll("[data-needs-js]").forEach((el) => { el.hidden = false; });

  const source = createSource(root);
  // Every query needs the manifest first: fetched now, it is there by the time the first word is typed.
  source.manifest().catch(() => { status.textContent = "Search could not load; browse all skills instead."; });
  const params = new URLSearchParams(window.location.search);
  if (params.has("q")) input.value = params.get("q");
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
    let results;
    try {
      results = await search(source, raw, filters, RESULTS);
    } catch (error) {
      if (current === generation) status.textContent = "Search could not load; browse all skills instead.";
      return;
    }
    if (current !== generation) return;  // a newer query has started: this answer is stale
    render(results, queryWords(raw));
    const ms = Math.round(performance.now() - started);
    status.textContent = results.length ? results.length + " results (" + ms + " ms)" : NO_MATCH;
  }

  function render(results, terms) {
    list.replaceChildren();
    results.forEach((r, index) => {
      const marks = marker(terms, r);
      const item = document.createElement("li");
      item.className = "result";
      const link = document.createElement("a");
      link.href = r.url;
      link.className = "result-title";
      link.appendChild(highlighted(r.name, marks, 80));
      link.setAttribute("data-result-index", String(index));
      const id = document.createElement("span");
      id.className = "card-id";
      id.textContent = " " + r.id;
      const heading = document.createElement("h2");
      heading.append(link, id);
      const text = document.createElement("p");
      text.appendChild(highlighted(r.description, marks, 240));
      const badge = document.createElement("span");
      badge.className = "badge tier-" + r.tier;
      badge.textContent = r.tier;
      const risk = document.createElement("span");
      risk.className = "badge risk-" + r.risk;
      risk.textContent = "risk: " + r.risk;
      const meta = document.createElement("p");
      meta.className = "card-meta";
      meta.append(badge, " ", risk);
      const why = document.createElement("p");
      why.className = "muted why";
      why.textContent = whyLine(r);
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
  window.__skillSearch = async (q) => {
    input.value = q;
    await run(false);
    return [...list.querySelectorAll("a.result-title")].map((a) => a.getAttribute("href"));
  };
  form.setAttribute("data-ready", "true");
  if (input.value) run(!params.has("q"));
}

main();
