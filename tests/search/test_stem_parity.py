"""The CLI's stemmer (PyStemmer) and the site's (static/porter2.js) give the same stem for every corpus word.

Ranking compares stems on both sides, so one word stemmed differently would order results differently
in the browser and in `skill-registry search`.
"""

import json
import subprocess
from pathlib import Path

from conftest import REPO_ROOT

from registry.search.stem import stem
from registry.search.text import words

PORTER2_JS = REPO_ROOT / "static" / "porter2.js"


def corpus_words(corpus) -> list[str]:
    """Every distinct word of the corpus's SKILL.md files and reference texts, split as the index splits them."""
    found: set[str] = set()
    for path in corpus.rglob("*"):
        if path.is_file() and path.suffix in (".md", ".txt"):
            found.update(words(path.read_text(encoding="utf-8", errors="replace")))
    return sorted(found)


def run_in_node(module: Path, data, expression: str, tmp_path):
    """`expression` evaluated in Node over `data` (as `data`) with `module` imported (as `m`), read back as JSON."""
    listed = tmp_path / f"{module.stem}-data.json"
    listed.write_text(json.dumps(data))
    script = (
        f"const fs = require('fs'); import({json.dumps(module.as_uri())}).then(m => {{"
        f"const data = JSON.parse(fs.readFileSync({json.dumps(str(listed))}, 'utf8'));"
        f"process.stdout.write(JSON.stringify({expression})); }})"
    )
    return json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)


def javascript_stems(all_words: list[str], tmp_path) -> list[str]:
    return run_in_node(PORTER2_JS, all_words, "data.map(m.stem)", tmp_path)


def test_python_and_javascript_stem_every_corpus_word_alike(corpus, tmp_path):
    all_words = corpus_words(corpus)
    assert len(all_words) > 10_000, "the corpus should give well over ten thousand distinct words"
    in_python = [stem(word) for word in all_words]
    in_javascript = javascript_stems(all_words, tmp_path)
    differing = [
        f"{word}: python {p!r}, javascript {j!r}"
        for word, p, j in zip(all_words, in_python, in_javascript, strict=True)
        if p != j
    ]
    assert not differing, f"{len(differing)} words stem differently, e.g. {differing[:10]}"
    # Stemming did something: a stemmer that returned every word unchanged would also agree.
    assert sum(p != w for w, p in zip(all_words, in_python, strict=True)) > len(all_words) // 5


def test_known_stems_on_both_sides(tmp_path):
    examples = {
        "deployment": "deploy", "deploying": "deploy", "deploys": "deploy", "testing": "test",
        "testosterone": "testosteron", "metasploit": "metasploit", "meta": "meta", "generously": "generous",
    }  # fmt: skip
    assert {word: stem(word) for word in examples} == examples
    assert dict(zip(examples, javascript_stems(list(examples), tmp_path), strict=True)) == examples


SEARCH_RANK_JS = REPO_ROOT / "static" / "search-rank.js"


def test_python_and_javascript_split_and_key_every_corpus_text_alike(corpus, tmp_path):
    """words (ASCII words and CJK character pairs), stem keys, vocabulary files and postings buckets: the site
    finds a word in the file the build wrote it to only if both sides compute all four alike."""
    from registry.search.terms import bucket_of, prefix2, stem_key

    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(corpus.rglob("SKILL.md"))]
    texts += ["公司违法解除劳动合同，我该怎么维权", "deployMyApp 한국어 カ ＡＢＣ café", ""]
    expression = (
        "(() => { const split = data.map(m.words); const all = [...new Set(split.flat())].sort();"
        " return {split, keys: all.map(w => [w, m.stemKey(w), m.prefix2(w), m.bucketOf(w, 4096)])}; })()"
    )
    result = run_in_node(SEARCH_RANK_JS, texts, expression, tmp_path)
    assert result["split"] == [words(text) for text in texts]
    all_words = sorted({w for text in texts for w in words(text)})
    assert result["keys"] == [[w, stem_key(w), prefix2(w), bucket_of(w, 4096)] for w in all_words]
    assert "维权" in all_words and "deploy" in all_words


def test_typo_distances_agree_with_rapidfuzz(tmp_path):
    """The browser's typo distance (its own code) decides as the CLI's (RapidFuzz's OSA distance) does."""
    import random

    from registry.search.text import distance, doubled_letter_apart, typo_budget

    rnd = random.Random(15)
    pairs = []
    for _ in range(4000):
        a = "".join(rnd.choice("abcdes") for _ in range(rnd.randint(3, 11)))
        b = list(a)
        for _ in range(rnd.randint(0, 3)):  # near each other, as typos are
            position = rnd.randrange(len(b) + 1)
            choice = rnd.random()
            if choice < 0.3 and position < len(b):
                del b[position]
            elif choice < 0.6:
                b.insert(position, rnd.choice("abcdes"))
            elif position + 1 < len(b):
                b[position], b[position + 1] = b[position + 1], b[position]
        pairs.append([a, "".join(b)])

    def python_distance(word, candidate):
        if doubled_letter_apart(word, candidate):
            return 1
        budget = typo_budget(word)
        found = distance(word, candidate, budget) if budget else None
        return found if found is not None and found <= budget else None

    in_javascript = run_in_node(SEARCH_RANK_JS, pairs, "data.map(([a, b]) => m.typoDistance(a, b))", tmp_path)
    assert in_javascript == [python_distance(a, b) for a, b in pairs]
    decided = [python_distance(a, b) for a, b in pairs]
    assert sum(d is not None for d in decided) > 500 and sum(d is None for d in decided) > 500
