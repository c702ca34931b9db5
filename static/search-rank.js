// Site search without the DOM: reads the static shards under `search/` (format 2, README "Search") and
// ranks exactly as registry/search/engine.py does for the CLI and agents.
// tests/search/test_index_and_cli.py runs this file in Node over a built site and checks it returns the
// same results, in the same order, with the same explanations as the Python engine;
// tests/search/test_stem_parity.py checks porter2.js stems every corpus word as the CLI's PyStemmer does.
import { stem as porter2 } from "./porter2.js";

const STOP_WORDS = new Set(("a about am an and are as at be been but by can could did do does for from has have how " +
  "i if in into is it its me my of on or our out over please so than that the their them then there they this to " +
  "up us use using want was we were with would you your").split(" "));
const SOFT_WORDS = new Set(("all any best can create do find get give good help just make need new now put really " +
  "right should show some today what when where which why will write").split(" "));
// Best first: a word found as typed beats one found through its stem, a synonym, a prefix or a typo.
const KINDS = ["exact", "stem", "synonym", "prefix", "typo"];
const BIT_COUNT = 5;

// Han, kana and hangul: written without spaces between words, so read as overlapping pairs of characters.
const CJK_RUN = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)/;

// As text.py's words: ASCII words, and each pair of adjacent CJK characters, in the text's order.
export function words(text) {
  const found = [];
  String(text || "").split(CJK_RUN).forEach((piece, position) => {
    if (position % 2) {
      if (piece.length === 1) found.push(piece);
      else for (let i = 0; i + 1 < piece.length; i++) found.push(piece.slice(i, i + 2));
    } else if (piece) {
      const split = piece.replace(/([a-z])([A-Z])/g, "$1 $2");
      const folded = split.normalize("NFKD").replace(/[^\x00-\x7f]/g, "").toLowerCase();
      found.push(...(folded.match(/[a-z0-9]+/g) || []));
    }
  });
  return found;
}

const ASCII = /^[\x00-\x7f]*$/;

export function queryWords(query) {
  const all = words(query);
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length ? kept : all;
}

export function normalized(text) {
  return words(text).join(" ");
}

// A page stems the same few thousand words again on every keystroke.
const stemKeys = new Map();
export function stemKey(word) {
  let key = stemKeys.get(word);
  if (key === undefined && !ASCII.test(word)) {
    key = word;  // a pair of CJK characters is its own key
    stemKeys.set(word, key);
  }
  if (key === undefined) {
    key = porter2(word);
    // Porter2 keeps a final "s" after a consonant (pdfs, llms): drop it so a plural meets its singular.
    if (key.length > 3 && key.endsWith("s") && !"su".includes(key[key.length - 2])) key = key.slice(0, -1);
    stemKeys.set(word, key);
  }
  return key;
}

// The vocabulary file of a word: its first two characters, or "_" and the hex code of a non-ASCII first one.
export function prefix2(word) {
  return ASCII.test(word.slice(0, 1)) ? word.slice(0, 2) : "_" + word.codePointAt(0).toString(16);
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function bucketOf(word, buckets) {
  let hash = 2166136261;
  for (const byte of utf8.encode(stemKey(word))) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
  return hash % buckets;
}

// The names file of a key: its first two letters or digits, whatever separates them.
function namePrefix(key) {
  const letters = (key.match(/[a-z0-9]/g) || []).slice(0, 2).join("");
  return letters || (key ? "_" + key.codePointAt(0).toString(16) : "");
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

// How far a typed word is from an index word: null when it is not a typo of it.
export function typoDistance(word, candidate) {
  if (doubledLetterApart(word, candidate)) return 1;
  const budget = typoBudget(word);
  if (budget === 0) return null;
  const found = distance(word, candidate, budget);
  return found <= budget ? found : null;
}

// For marking words in shown text: the same stem key, or a prefix of the word being typed.
export function wordMatches(queryWord, textWord, typing = false) {
  return queryWord === textWord || stemKey(queryWord) === stemKey(textWord)
    || (typing && queryWord.length >= 3 && textWord.startsWith(queryWord));
}

function readVarint(bytes, at) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    byte = bytes[at.offset++];
    value += (byte & 0x7f) * scale;  // not <<: a value may pass 2^31
    scale *= 128;
  } while (byte & 0x80);
  return value;
}

// A postings file is deflated (raw, RFC 1951): every browser since 2023 inflates it natively.
export async function inflateRaw(buffer) {
  const stream = new Blob([buffer]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).arrayBuffer();
}

// One inflated postings file: word -> {docs, weights}, doc numbers ascending. Per word: its length and
// ASCII bytes, the count, then the document gaps, one byte of field bits each, and the eighths of the
// pseudo-frequency (registry/search/shards.py encode_postings); weight = eighths * 32 + bits.
export function decodePostings(buffer) {
  const bytes = new Uint8Array(buffer);
  const at = { offset: 0 };
  const entries = new Map();
  while (at.offset < bytes.length) {
    const length = readVarint(bytes, at);
    const word = fromUtf8.decode(bytes.subarray(at.offset, at.offset + length));
    at.offset += length;
    const count = readVarint(bytes, at);
    const docs = new Array(count);
    const weights = new Array(count);
    let doc = 0;
    for (let i = 0; i < count; i++) {
      doc += readVarint(bytes, at);
      docs[i] = doc;
    }
    const bits = bytes.subarray(at.offset, at.offset + count);
    at.offset += count;
    for (let i = 0; i < count; i++) weights[i] = readVarint(bytes, at) * 32 + bits[i];
    entries.set(word, { docs, weights });
  }
  return entries;
}

// Every file is fetched at most once per source and only when a query needs it; an absent file (404) is
// empty (no such words, names or filter values).
export function createSource(root, fetchImpl = (url) => fetch(url)) {
  const cache = new Map();
  function load(path, read, empty) {
    let found = cache.get(path);
    if (!found) {
      found = fetchImpl(root + "search/" + path).then((response) => {
        if (response.status === 404) return empty;
        if (!response.ok) throw new Error("search/" + path + ": HTTP " + response.status);
        return read(response);
      });
      // A failed fetch is tried again by the next query, not remembered.
      found.catch(() => cache.delete(path));
      cache.set(path, found);
    }
    return found;
  }
  const json = (response) => response.json();
  const manifest = () => load("manifest.json", json, null).then((found) => {
    if (!found || found.format !== 2) throw new Error("search/manifest.json: not format 2");
    return found;
  });
  // The manifest lists the vocab and names files that exist: none that does not is asked for (a browser
  // reports every 404 as an error). Without that list, a 404 still reads as empty.
  const present = new WeakMap();
  async function listed(folder, name, read) {
    const found = await manifest();
    if (!present.has(found)) {
      present.set(found, Object.fromEntries(Object.entries(found.present || {})
        .map(([files, names]) => [files, new Set(names.split(" "))])));
    }
    const known = present.get(found)[folder];
    return known && !known.has(name) ? {} : read();
  }
  return {
    root,
    manifest,
    vocab: (prefix) => listed("vocab", prefix, () => load("vocab/" + prefix + ".json", json, {})),
    postings: (bucket) => load("postings/" + bucket + ".bin",
      (r) => r.arrayBuffer().then(inflateRaw).then(decodePostings), new Map()),
    names: (prefix) => listed("names", prefix, () => load("names/" + prefix + ".json", json, {})),
    docs: (chunk) => load("docs/" + chunk + ".json", json, []),
    order: (chunk) => load("order/" + chunk + ".json", json, []),
    filter: (field) => load("filters/" + field + ".json", json, {}),
  };
}

function byDfThenWord(vocab) {
  return (a, b) => vocab[b] - vocab[a] || (a < b ? -1 : a > b ? 1 : 0);
}

// As synonyms.py's synonyms_of: the other words of every group of the manifest's synonym table holding the
// word's stem, in the table's order, each once.
export function synonymsOf(word, groups) {
  const key = stemKey(word);
  const found = [];
  for (const group of groups || []) {
    if (!group.some((member) => stemKey(member) === key)) continue;
    for (const member of group) if (stemKey(member) !== key && !found.includes(member)) found.push(member);
  }
  return found;
}

// The index words a query word stands for, in the order that decides "how" and "via": the word as typed,
// its other forms (commonest first), each synonym's forms (`synonyms`: [synonym, its vocab file] pairs), then
// when it is being typed the commonest words it starts; only a word known in none of these ways is read as
// a typo of the nearest index words (as engine.py's expand).
export function expansions(word, vocab, typing, limit, synonyms = []) {
  const key = stemKey(word);
  const known = Object.keys(vocab);
  const order = byDfThenWord(vocab);
  const forms = known.filter((v) => stemKey(v) === key).sort((a, b) => (a !== word) - (b !== word) || order(a, b));
  const found = forms.map((v) => ({ word: v, kind: v === word ? "exact" : "stem" }));
  const taken = new Set(forms);
  for (const [synonym, synonymVocab] of synonyms) {
    const synonymKey = stemKey(synonym);
    const synonymOrder = byDfThenWord(synonymVocab);
    const alike = Object.keys(synonymVocab).filter((v) => stemKey(v) === synonymKey && !taken.has(v))
      .sort((a, b) => (a !== synonym) - (b !== synonym) || synonymOrder(a, b));
    for (const v of alike) {
      found.push({ word: v, kind: "synonym" });
      taken.add(v);
    }
  }
  if (typing && word.length >= 3) {
    const prefixes = known.filter((v) => v.startsWith(word) && !taken.has(v)).sort(order).slice(0, limit);
    for (const v of prefixes) found.push({ word: v, kind: "prefix" });
  }
  if (found.length) return found;
  const typos = [];
  for (const v of known) {
    const apart = typoDistance(word, v);
    if (apart !== null) typos.push({ word: v, apart });
  }
  typos.sort((a, b) => a.apart - b.apart || order(a.word, b.word));
  return typos.slice(0, limit).map((t) => ({ word: t.word, kind: "typo" }));
}

// Keys come from skill names and queries: "constructor" or "__proto__" must not reach Object.prototype.
function own(map, key) {
  return Object.hasOwn(map, key) ? map[key] : [];
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

function position(sorted, value) {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === value ? low : -1;
}

// Per field a word was found in, the best way it was found there and through which index word: only what
// the postings of this document hold (as engine.py's _explain).
function explain(hits, doc, manifest) {
  const best = {};
  for (const { word, kind, entry } of hits.expansions) {
    const at = position(entry.docs, doc);
    if (at === -1) continue;
    const bits = entry.weights[at];
    for (const field of manifest.fields) {
      if (!(bits & manifest.field_bits[field])) continue;
      if (!best[field] || KINDS.indexOf(kind) < KINDS.indexOf(best[field].how)) best[field] = { field, how: kind, via: word };
    }
  }
  const fields = manifest.fields.filter((field) => best[field]).map((field) => best[field]);
  const how = KINDS.find((kind) => fields.some((f) => f.how === kind));
  return { fields, how, via: fields.find((f) => f.how === how).via };
}

// Ranked results for a raw query: README "Search", the same steps as registry/search/engine.py.
// `filters` holds category, tier, risk and dialect (each optional); K results at most.
export async function search(source, raw, filters = {}, K = 20) {
  const query = queryWords(raw);
  if (!query.length) return [];
  const exactKeys = [normalized(raw)];
  if (raw.includes("/")) exactKeys.push(raw.trim().toLowerCase());
  const namedKeys = exactKeys.filter((key) => namePrefix(key));
  const filterFields = Object.keys(filters).filter((field) => filters[field]);

  // Every file that does not depend on another is fetched at once.
  const [manifest, vocabs, nameMaps, filterMaps] = await Promise.all([
    source.manifest(),
    Promise.all(query.map((w) => source.vocab(prefix2(w)))),
    Promise.all(namedKeys.map((key) => source.names(namePrefix(key)))),
    Promise.all(filterFields.map((field) => source.filter(field))),
  ]);
  if (!manifest.live) return [];
  // Each word's synonyms (the manifest's table) and their vocab files, all fetched at once.
  const synonyms = query.map((w) => synonymsOf(w, manifest.synonyms));
  const synonymVocabs = await Promise.all(synonyms.map((list) => Promise.all(list.map((s) => source.vocab(prefix2(s))))));
  const expanded = query.map((w, i) => expansions(w, vocabs[i], i === query.length - 1, manifest.expansions,
    synonyms[i].map((s, j) => [s, synonymVocabs[i][j]])));
  const buckets = [...new Set(expanded.flat().map((e) => bucketOf(e.word, manifest.buckets)))];
  const postingMaps = new Map(await Promise.all(buckets.map(async (b) => [b, await source.postings(b)])));

  // Per query word: its expansions the index holds, and per document the summed pseudo-frequency and field bits.
  const low = 2 ** BIT_COUNT;
  const hits = expanded.map((list) => {
    const found = { expansions: [], docs: new Map() };
    let said = null;  // documents holding the word in one of its own forms
    for (const { word, kind } of list) {
      let entry = postingMaps.get(bucketOf(word, manifest.buckets)).get(word);
      if (entry && kind === "synonym") {
        // A synonym stands in for a word a skill does not say; it adds nothing where the skill says the word.
        if (!said) said = new Set(found.docs.keys());
        const kept = entry.docs.map((doc, i) => (said.has(doc) ? -1 : i)).filter((i) => i !== -1);
        entry = { docs: kept.map((i) => entry.docs[i]), weights: kept.map((i) => entry.weights[i]) };
      }
      if (!entry || !entry.docs.length) continue;
      found.expansions.push({ word, kind, entry });
      const factor = manifest.kinds[kind];
      for (let i = 0; i < entry.docs.length; i++) {
        const weight = entry.weights[i];
        let hit = found.docs.get(entry.docs[i]);
        if (!hit) found.docs.set(entry.docs[i], (hit = { t: 0, bits: 0 }));
        // The same operations in the same order as engine.py: the sums are bit-identical.
        hit.t += factor * Math.floor(weight / low) / manifest.tf_scale;
        hit.bits |= weight % low;
      }
    }
    return found;
  });

  const k1 = manifest.k1;
  const scores = new Map();
  for (const { docs } of hits) {
    const df = docs.size;
    const idf = Math.log(1 + (manifest.live - df + 0.5) / (df + 0.5));
    for (const [doc, hit] of docs) scores.set(doc, (scores.get(doc) || 0) + idf * hit.t * (k1 + 1) / (k1 + hit.t));
  }

  const exact = new Set();
  namedKeys.forEach((key, i) => own(nameMaps[i], key).forEach((doc) => exact.add(doc)));
  const allowed = filterFields.map((field, i) => new Set(own(filterMaps[i], filters[field])));
  const squatters = new Set(manifest.squatters || []);
  const candidates = [];
  for (const doc of new Set([...scores.keys(), ...exact])) {
    if (!allowed.every((docs) => docs.has(doc))) continue;
    const missing = query.filter((w, i) => !hits[i].docs.has(doc) && !SOFT_WORDS.has(w)).length;
    const nameAll = missing === 0 && hits.every(({ docs }) => !docs.has(doc) || docs.get(doc).bits & 1);
    const squatter = squatters.has(doc);
    const scoreInt = Math.floor((scores.get(doc) || 0) * 1e6 + 0.5);
    candidates.push({ doc, key: [exact.has(doc) && !squatter ? 0 : 1, squatter ? 1 : 0, nameAll ? 0 : 1, -scoreInt] });
  }
  candidates.sort((a, b) => compareKeys(a.key, b.key));
  let kept = Math.min(K, candidates.length);
  // Everything tied with the last one kept: their tie-break keys (order chunks, a few bytes a skill) decide.
  while (kept > 0 && kept < candidates.length && compareKeys(candidates[kept].key, candidates[K - 1].key) === 0) kept++;
  const shortlist = candidates.slice(0, kept);
  // Only skills tied with another on everything above need their tie-break key (order/ chunks).
  const seen = new Map();
  for (const c of shortlist) seen.set(c.key.join(), (seen.get(c.key.join()) || 0) + 1);
  const tied = shortlist.filter((c) => seen.get(c.key.join()) > 1).map((c) => c.doc);
  const ordered = await fetchChunks(source.order, manifest.order_chunk, tied);
  for (const c of shortlist) c.key = [...c.key, ordered.get(c.doc) ?? 0, c.doc];
  shortlist.sort((a, b) => compareKeys(a.key, b.key));
  const best = shortlist.slice(0, K);

  const records = await fetchChunks(source.docs, manifest.doc_chunk, best.map((c) => c.doc));
  const results = [];
  for (const c of best) {
    const record = records.get(c.doc);
    if (!record) continue;
    const [id, name, description, tier, risk, updated, category, dialects, version] = record;
    const matches = {};
    query.forEach((w, i) => {
      if (hits[i].docs.has(c.doc) && !Object.hasOwn(matches, w)) matches[w] = explain(hits[i], c.doc, manifest);
    });
    results.push({
      id, name, description, tier, risk, updated, category, dialects, version, matches,
      key: c.key,
      score: scores.get(c.doc) || 0,
      exact: c.key[0] === 0,
      url: source.root + "skills/" + id.split("/").map(encodeURIComponent).join("/") + "/",
    });
  }
  return results;
}

// Per document its entry in chunked files (docs/, order/): each chunk fetched once, all at the same time.
async function fetchChunks(load, size, docs) {
  const numbers = [...new Set(docs.map((doc) => Math.floor(doc / size)))];
  const chunks = new Map(await Promise.all(numbers.map(async (n) => [n, await load(n)])));
  return new Map(docs.map((doc) => [doc, chunks.get(Math.floor(doc / size))[doc % size] ?? null]));
}
