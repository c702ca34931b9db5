"""Candidate synonym pairs learned from a registry's own names and descriptions (issue 25, item 3).

    .venv/bin/python -m bench.synonym_candidates [SOURCE ...] [--min-skills 3] [--top 150] [--json FILE]

Reads every published (loadable) skill of each SOURCE (default: ../shared/corpus and skills-index/) with the
registry's own crawler and parser, and keeps, per skill, the stems (registry/search/terms.py's
stem_key) of the words in its name and description, stop and soft words left out. Two lists follow:

- co-occurring: pairs said together in the names and descriptions of at least --min-skills skills,
  ordered by how many skills say both times their pointwise mutual information (how much more often
  they meet than chance). This is where a registry writes a term beside its other name
  ("PowerPoint (.pptx) decks", "Kubernetes (k8s)").
- same company: pairs whose co-occurring words are alike (cosine of their positive-PMI rows), which
  also finds two names used by different skills for the same thing, even when never said together.

Most pairs are related, not interchangeable (pdf and document, git and commit): the lists are for a
person to read. Only pairs that name the same thing in general vocabulary (a technology and its
abbreviation, a file format and its program, a common task's other word) go into
registry/search/synonyms.yaml, by hand; tests/relevance/README.md says how the table was reviewed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: bench/synonym_candidates.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill
from registry.search.terms import index_words, stem_key
from registry.search.text import SOFT_WORDS

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCES = (ROOT.parent / "shared" / "corpus", ROOT / "skills-index")


def skill_texts(sources: list[Path]) -> list[str]:
    """Each loadable (published) skill's name and description."""
    texts = []
    for source in sources:
        for location in crawl(source, Limits()).locations:
            skill = parse_skill(location, Limits())
            if skill.loadable:
                texts.append(f"{skill.display_name}\n{skill.description or ''}")
    return texts


def stems_of(text: str, surface: dict[str, Counter]) -> set[str]:
    """The stems a text says (two letters or more, no soft words, not only digits), noting each stem's spellings."""
    found = set()
    for word in index_words(text):
        if len(word) < 2 or word in SOFT_WORDS or word.isdigit() or not word.isascii():
            continue
        key = stem_key(word)
        surface[key][word] += 1
        found.add(key)
    return found


def candidates(texts: list[str], min_skills: int, top: int) -> dict[str, list[dict]]:
    surface: dict[str, Counter] = defaultdict(Counter)
    documents = [stems_of(text, surface) for text in texts]
    frequency = Counter(stem for stems in documents for stem in stems)
    kept = sorted(stem for stem, count in frequency.items() if count >= min_skills)
    column = {stem: position for position, stem in enumerate(kept)}
    matrix = np.zeros((len(documents), len(kept)), dtype=np.float64)
    for row, stems in enumerate(documents):
        for stem in stems:
            if stem in column:
                matrix[row, column[stem]] = 1.0
    together = matrix.T @ matrix  # skills saying both
    count = len(documents)
    alone = np.diag(together).copy()
    with np.errstate(divide="ignore"):
        pmi = np.log(together * count / np.outer(alone, alone))
    ppmi = np.where(np.isfinite(pmi) & (pmi > 0), pmi, 0.0)
    np.fill_diagonal(ppmi, 0.0)
    norms = np.linalg.norm(ppmi, axis=1)
    norms[norms == 0] = 1.0
    cosine = (ppmi / norms[:, None]) @ (ppmi / norms[:, None]).T

    def word(stem: str) -> str:
        return surface[stem].most_common(1)[0][0]

    def pair(i: int, j: int) -> dict:
        return {
            "a": word(kept[i]),
            "b": word(kept[j]),
            "skills_both": int(together[i, j]),
            "skills_a": int(alone[i]),
            "skills_b": int(alone[j]),
            "pmi": round(float(pmi[i, j]), 3) if np.isfinite(pmi[i, j]) else None,
            "context_cosine": round(float(cosine[i, j]), 3),
        }

    upper = np.triu_indices(len(kept), k=1)
    both = together[upper]
    strength = np.where(np.isfinite(pmi[upper]) & (both >= min_skills), both * np.maximum(pmi[upper], 0), 0.0)
    by_strength = np.argsort(-strength, kind="stable")[:top]
    by_context = np.argsort(-cosine[upper], kind="stable")[:top]
    return {
        "skills": count,
        "stems": len(kept),
        "co_occurring": [pair(upper[0][k], upper[1][k]) for k in by_strength if strength[k] > 0],
        "same_company": [pair(upper[0][k], upper[1][k]) for k in by_context if cosine[upper][k] > 0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*", type=Path, default=list(DEFAULT_SOURCES))
    parser.add_argument("--min-skills", type=int, default=3, help="skills a stem (and a pair) must appear in")
    parser.add_argument("--top", type=int, default=150, help="pairs per list")
    parser.add_argument("--json", type=Path, help="write both lists here")
    args = parser.parse_args(argv)
    found = candidates(skill_texts(args.sources), args.min_skills, args.top)
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n")
    print(f"{found['skills']} skills, {found['stems']} stems in at least {args.min_skills} of them")
    for title, key in (("co-occurring in names and descriptions", "co_occurring"), ("same company", "same_company")):
        print(f"\n{title}: a, b, skills saying both / a / b, PMI, context cosine")
        for p in found[key]:
            pmi = "-" if p["pmi"] is None else f"{p['pmi']:.2f}"
            print(
                f"  {p['a']:<16} {p['b']:<16} {p['skills_both']:>4} / {p['skills_a']:>4} / {p['skills_b']:>4}"
                f"  {pmi:>5}  {p['context_cosine']:.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
