"""English stems from Snowball's Porter2 stemmer (PyStemmer, Snowball 2.2).

The browser stems with static/porter2.js, which gives the same stems for the same Snowball version:
tests/search/test_stem_parity.py runs both over every word of the corpus. Upgrading either side
means checking that test first, or the CLI and the site stop ranking alike.
"""

from __future__ import annotations

import functools

import Stemmer

# PyStemmer's own cache is turned off: the lru_cache below already keeps every word seen.
_ENGLISH = Stemmer.Stemmer("english", 0)


@functools.lru_cache(maxsize=262_144)
def stem(word: str) -> str:
    """The Snowball English stem of one lowercase word ("deployments" -> "deploy")."""
    return _ENGLISH.stemWord(word)
