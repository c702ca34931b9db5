"""The readers' shortcuts give what the plain forms they stand for give."""

import ast
import random
import re
from pathlib import Path

from registry.score.code import decoded, javascript, python, shell


def _samples(seed: int, count: int = 3000) -> list[str]:
    alphabet = "aZ09+/_-=\\x \t\n\u00a0\u2003é.;\"'"
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pieces = [rng.choice(alphabet) for _ in range(rng.randint(0, 30))]
        if rng.random() < 0.3:
            pieces.insert(rng.randint(0, len(pieces)), "A" * rng.randint(35, 45))
        out.append("".join(pieces))
    return out


def test_squeezed_drops_what_the_whitespace_pattern_drops():
    for text in _samples(1):
        assert javascript._squeezed(text) == re.sub(r"\s+", "", text)


def test_squeezed_agrees_on_every_character():
    for code in range(0x3100):
        text = f"a{chr(code)}b"
        assert javascript._squeezed(text) == re.sub(r"\s+", "", text)


def test_run_prefilter_never_hides_a_run():
    for text in _samples(2):
        quick = decoded._RUN_SEED in text.encode("utf-8", "surrogatepass").translate(decoded._RUN_BYTES)
        assert quick or decoded._RUN.search(text) is None
        assert quick == (re.search(r"[A-Za-z0-9+/_-]{40}", text) is not None)


def test_joined_interleaves_gaps_and_texts():
    rng = random.Random(3)
    for _ in range(2000):
        gaps = [rng.choice(["", "a", " b"]) for _ in range(rng.randint(1, 5))]
        texts = [rng.choice(["$x", "y", ""]) for _ in range(rng.randint(0, 5))]
        plain = "".join(g + t for g, t in zip(gaps, texts, strict=False)) + (gaps[-1] if len(gaps) > len(texts) else "")
        assert shell._joined(gaps, texts) == plain


def test_children_are_the_child_nodes_in_order():
    tree = ast.parse(Path(python.__file__).read_text())
    for node in ast.walk(tree):
        assert python._children(node) == list(ast.iter_child_nodes(node))
