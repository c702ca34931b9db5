"""How close the context-cost estimate (registry/score/context_cost.py) comes to a real tokenizer.

The only Claude tokenizer that ships inside a package is the legacy one in `anthropic` SDK releases
before 0.39 (`anthropic/tokenizer.json`, read with Hugging Face `tokenizers`). Neither is a
dependency of the registry, so run this from a separate venv that has both, with the repository on
the path:

    python -m venv /tmp/calib && /tmp/calib/bin/pip install 'anthropic==0.34.2' tokenizers numpy
    PYTHONPATH=. /tmp/calib/bin/python bench/context_calibration.py --corpus ../shared/corpus

It prints, over every SKILL.md body of the corpus (and every name and description), the weights a
least-squares fit of relative error would choose and the error of the weights the registry uses.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FRONTMATTER = re.compile(r"---\n(.*?)\n---\n?(.*)", re.S)
NAME = re.compile(r"^name:\s*(.*)$", re.M)
DESCRIPTION = re.compile(r"^description:\s*(.*)$", re.M)


def load_estimator():
    # By file, not by package: registry/score/__init__.py imports the whole scorer and its dependencies.
    spec = importlib.util.spec_from_file_location("context_cost", REPO / "registry" / "score" / "context_cost.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def legacy_claude_tokenizer():
    import anthropic
    from tokenizers import Tokenizer

    path = Path(anthropic.__file__).parent / "tokenizer.json"
    if not path.is_file():
        sys.exit(f"anthropic {anthropic.__version__} ships no tokenizer.json: install anthropic==0.34.2")
    return Tokenizer.from_file(str(path)), f"anthropic {anthropic.__version__} tokenizer.json"


def samples(corpus: Path) -> tuple[list[str], list[str]]:
    bodies, descriptions = [], []
    for path in sorted(corpus.rglob("SKILL.md")):
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
        match = FRONTMATTER.match(text)
        if not match:
            continue
        bodies.append(match.group(2))
        name, description = NAME.search(match.group(1)), DESCRIPTION.search(match.group(1))
        if name and description:
            descriptions.append(f"name: {name.group(1).strip()}\ndescription: {description.group(1).strip()}")
    return bodies, descriptions


def features(module, text: str) -> list[float]:
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return [
        len(module._WORD.findall(text)),
        len(module._SYMBOL.findall(text)),
        len(module._DIGIT.findall(text)),
        non_ascii,
        text.count("\n"),
    ]


def report(label: str, estimates: list[int], actual: list[int]) -> None:
    errors = sorted(abs(e - a) / a for e, a in zip(estimates, actual, strict=True))
    chars = f"total estimate / total tokens {sum(estimates) / sum(actual):.3f}"
    print(
        f"{label}: {len(actual)} texts, mean error {statistics.mean(errors):.1%}, median {errors[len(errors) // 2]:.1%}, "
        f"90th percentile {errors[int(len(errors) * 0.9)]:.1%}, worst {errors[-1]:.1%}, {chars}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--min-tokens", type=int, default=20, help="leave out bodies shorter than this")
    args = parser.parse_args()
    module = load_estimator()
    tokenizer, source = legacy_claude_tokenizer()
    bodies, descriptions = samples(args.corpus)
    count = [len(tokenizer.encode(b, add_special_tokens=False).ids) for b in bodies]
    kept = [(b, n) for b, n in zip(bodies, count, strict=True) if n >= args.min_tokens]
    print(f"reference: {source}; corpus {args.corpus}: {len(bodies)} SKILL.md bodies, {len(kept)} of >= 20 tokens")
    total_chars = sum(len(b) for b, _ in kept)
    total_tokens = sum(n for _, n in kept)
    print(f"characters per token over the kept bodies: {total_chars / total_tokens:.2f}")
    try:
        import numpy

        matrix = numpy.array([features(module, b) for b, _ in kept], float)
        tokens = numpy.array([n for _, n in kept], float)
        weights, *_ = numpy.linalg.lstsq(matrix / tokens[:, None], numpy.ones(len(tokens)), rcond=None)
        names = "word symbol digit non-ascii newline".split()
        print("fitted weights: " + ", ".join(f"{n} {w:.2f}" for n, w in zip(names, weights, strict=True)))
    except ImportError:
        print("(numpy not installed: no fit, only the error of the registry's weights)")
    report("bodies, registry's estimate", [module.estimate_tokens(b) for b, _ in kept], [n for _, n in kept])
    report(
        "bodies, characters / 4",
        [max(1, round(len(b) / 4)) for b, _ in kept],
        [n for _, n in kept],
    )
    described = [len(tokenizer.encode(d, add_special_tokens=False).ids) for d in descriptions]
    report("name + description, registry's estimate", [module.estimate_tokens(d) for d in descriptions], described)


if __name__ == "__main__":
    main()
