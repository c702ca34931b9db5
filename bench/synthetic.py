"""Synthetic registries for the benchmark: N skills as a git repository, drawn from the real corpus.

    python -m bench.synthetic --skills 10000 --seed 7 --out /tmp/registry-10000

Every generated skill starts from a *template*: a skill of the real corpus without errors
(`../shared/corpus`), or, with a small weight, a scaffold of `skill-registry new` for each
dialect (Bouno has no skill in the corpus). From the template it keeps what makes the work
realistic: the frontmatter fields of its dialect, the body's structure (headings, code fences,
lists, links, tables, tool sections, placeholders), the code blocks verbatim (so risky lines
such as `curl ... | sh` appear in the corpus's proportion) and the support files (`scripts/`,
`references/`, `assets/`, ...) with their sizes and modes. It replaces the rest: the name (the
folder name), the description (its length drawn from the corpus's descriptions), the version,
and every prose word of the body, drawn from the corpus's vocabulary by frequency.

The repository holds `registry.yaml` (publishers with tiers, as the registry's own) and
`skills-index/<publisher>/<name>/`, written by one `git fast-import` process: an initial import,
then commits that edit bodies and bump semantic versions. Dates and authors are fixed, so the
same corpus, N and seed give the same repository, byte for byte (the same HEAD commit id).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from bisect import bisect
from collections import Counter
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SKILLS_ROOT = "skills-index"
MARKER = ".bench-synthetic.json"  # written beside the repository: what was generated, for --keep caches
EPOCH = 1_700_000_000  # 2023-11-14, the date of the initial import
DAY = 86_400
SCAFFOLD_WEIGHT = 0.015  # share of skills drawn from `skill-registry new` scaffolds (all dialects)
HEADING_KEYWORDS = frozenset({"command", "parameters", "commands"})
CATEGORIES = ["development", "creative", "enterprise", "data", "devops", "other"]

# Spans of a prose line that are kept as written, and the words that are replaced.
_PROTECTED = (
    r"`[^`\n]*`"  # inline code
    r"|https?://[^\s)>\]]+"  # URLs
    r"|\{\{[^}\n]*\}\}"  # template placeholders ({{name}})
    r"|\$\{?\w+\}?"  # $name, ${name}
    r"|\]\([^)\n]*\)"  # link targets
    r"|<[^>\n]*>"  # HTML and autolinks
    r"|[\w.-]+/[\w./-]+"  # paths
    r"|\w+\.\w{1,4}\b"  # file names
)
_TOKEN = re.compile(rf"(?P<keep>{_PROTECTED})|(?P<word>(?<![\w'-])[A-Za-z]{{4,}}(?![\w'-]))")
_WORD = re.compile(r"[a-z]{4,14}")
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


# -- the corpus profile -----------------------------------------------------------------------


@dataclass
class Template:
    """One real (or scaffolded) skill reduced to what the generator reuses."""

    origin: str  # corpus id, or "scaffold:<dialect>"
    dialects: tuple[str, ...]
    frontmatter: list[tuple[str | None, str]]  # (top-level key or None for comments/blank, entry text)
    parts: list[str]  # body: literal text at even positions, the original word at odd positions (a slot)
    files: list[tuple[str, bytes, bool]]  # support files: (path, content, executable)
    has_version: bool
    heading_slots: frozenset[int] = frozenset()  # slots on heading lines


@dataclass
class Profile:
    templates: list[Template]
    body_words: list[str]
    body_cum: list[int]
    description_words: list[str]
    description_cum: list[int]
    description_lengths: list[int]
    name_parts: list[str]
    fingerprint: str  # digest of the templates: the same corpus gives the same repositories
    summary: dict = field(default_factory=dict)


def _split_frontmatter(text: str) -> tuple[str, str] | None:
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0:
        return None
    return text[4 : end + 1], text[end + 5 :]


def _frontmatter_entries(frontmatter: str) -> list[tuple[str | None, str]]:
    entries: list[tuple[str | None, str]] = []
    for line in frontmatter.splitlines(keepends=True):
        match = _TOP_KEY.match(line)
        if match:
            entries.append((match.group(1), line))
        elif entries and entries[-1][0] is not None and (line[:1] in (" ", "\t", "-") or not line.strip()):
            entries[-1] = (entries[-1][0], entries[-1][1] + line)
        else:
            entries.append((None, line))
    return entries


def _skeleton(body: str, keep_headings: bool, keep_tables: bool) -> tuple[list[str], frozenset[int]]:
    """The body as literal text and word slots (and the slots on heading lines); code blocks and
    protected spans stay literal."""
    parts = [""]
    headings: set[int] = set()
    fence: str | None = None
    for line in body.splitlines(keepends=True):
        stripped = line.lstrip()
        marker = stripped[:3]
        if marker in ("```", "~~~"):
            fence = None if fence == marker else (fence or marker)
            parts[-1] += line
            continue
        if fence or (keep_headings and stripped.startswith("#")) or (keep_tables and stripped.startswith("|")):
            parts[-1] += line
            continue
        position = 0
        for match in _TOKEN.finditer(line):
            if match.group("word") is None:
                continue
            parts[-1] += line[position : match.start()]
            if stripped.startswith("#"):
                headings.add(len(parts) // 2)
            parts.append(match.group("word"))
            parts.append("")
            position = match.end()
        parts[-1] += line[position:]
    return parts, frozenset(headings)


def _scaffold_templates() -> list[tuple[str, str, list[tuple[str, bytes, bool]]]]:
    from registry.cli_authoring import DIALECT_CHOICES, render_skill

    out = []
    for dialect in DIALECT_CHOICES:
        files = render_skill("template-skill", dialect, "template-publisher", "1.0.0", tuple(CATEGORIES))
        support = [(path, text.encode(), path.startswith("scripts/")) for path, text in sorted(files.items())]
        out.append((f"scaffold:{dialect}", files["SKILL.md"], [f for f in support if f[0] != "SKILL.md"]))
    return out


def load_profile(corpus: Path = CORPUS) -> Profile:
    """Read the corpus once: templates, vocabularies and the distributions the generator draws from."""
    from registry.config import Limits
    from registry.crawl import crawl, read_bytes
    from registry.parse.skill import parse_skill

    limits = Limits()
    found = crawl(corpus, limits)
    raw: list[tuple[str, str, list[tuple[str, bytes, bool]], tuple[str, ...]]] = []
    description_lengths: list[int] = []
    description_words: Counter[str] = Counter()
    body_words: Counter[str] = Counter()
    name_parts: Counter[str] = Counter()
    for location in found.locations:
        skill = parse_skill(location, limits)
        if not skill.loadable or skill.errors or "checksum" in (skill.document.frontmatter or {}):
            continue
        text = skill.document.text
        if _split_frontmatter(text) is None:
            continue
        files = []
        for skill_file in location.files[1:]:
            if skill_file.linked:
                continue
            files.append(
                (skill_file.path, read_bytes(skill_file, limits.file_bytes), os.access(skill_file.source, os.X_OK))
            )
        raw.append((location.id, text, files, tuple(skill.dialects)))
        description = skill.description or ""
        description_lengths.append(len(description))
        description_words.update(_WORD.findall(description.lower()))
        body_words.update(_WORD.findall(skill.document.body.lower()))
        name_parts.update(p for p in (skill.name or "").split("-") if p.isalpha() and 3 <= len(p) <= 12)
    corpus_count = len(raw)
    for origin, text, files in _scaffold_templates():
        raw.append((origin, text, files, ()))

    templates = []
    digest = hashlib.sha256()
    for origin, text, files, dialects in raw:
        frontmatter, body = _split_frontmatter(text)  # type: ignore[misc]
        entries = _frontmatter_entries(frontmatter)
        keys = {key for key, _ in entries if key}
        quiz_or_tools = "quiz" in keys or "gibberish" in dialects or origin == "scaffold:gibberish"
        parts, headings = _skeleton(body, keep_headings=quiz_or_tools, keep_tables=quiz_or_tools)
        has_version = "version" in keys or any(
            key == "metadata" and (re.search(r"^\s+version\s*:", entry, re.M) or _FLOW_VERSION.search(entry))
            for key, entry in entries
        )
        templates.append(Template(origin, dialects, entries, parts, files, has_version, headings))
        digest.update(origin.encode() + b"\0" + text.encode() + b"\0")
        for path, content, executable in files:
            digest.update(path.encode() + b"\0" + hashlib.sha256(content).digest() + bytes([executable]))

    def ranked(counter: Counter[str]) -> tuple[list[str], list[int]]:
        items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
        return [w for w, _ in items], list(accumulate(c for _, c in items))

    bw, bc = ranked(body_words)
    dw, dc = ranked(description_words)
    summary = {
        "corpus": str(corpus),
        "corpus_templates": corpus_count,
        "scaffold_templates": len(raw) - corpus_count,
        "with_version": sum(t.has_version for t in templates),
        "with_support_files": sum(bool(t.files) for t in templates),
        "body_vocabulary": len(bw),
        "description_vocabulary": len(dw),
    }
    return Profile(
        templates, bw, bc, dw, dc, sorted(description_lengths), sorted(name_parts), digest.hexdigest(), summary
    )


# -- drawing skills ---------------------------------------------------------------------------


@dataclass
class Generated:
    publisher: str
    name: str
    template: Template
    version: tuple[int, int, int] | None
    body_seed: int
    description: str

    @property
    def path(self) -> str:
        return f"{SKILLS_ROOT}/{self.publisher}/{self.name}"


def _draw_words(rng: random.Random, words: list[str], cum: list[int], k: int) -> list[str]:
    return rng.choices(words, cum_weights=cum, k=k)


def _description(rng: random.Random, profile: Profile) -> str:
    target = max(20, min(1000, rng.choice(profile.description_lengths)))
    out: list[str] = []
    length = 0
    while length < target:
        batch = _draw_words(rng, profile.description_words, profile.description_cum, 12)
        for word in batch:
            out.append(word)
            length += len(word) + 1
            if length >= target:
                break
    sentence = " ".join(out)
    if len(out) > 8:  # most real descriptions say when to use the skill
        cut = sentence.find(" ", len(sentence) * 2 // 3)
        if cut > 0:
            sentence = sentence[:cut] + ". Use when" + sentence[cut:]
    return sentence[:1].upper() + sentence[1:] + "."


def render_body(template: Template, profile: Profile, seed: int) -> str:
    rng = random.Random(seed)
    parts = template.parts
    slots = len(parts) // 2
    if not slots:
        return parts[0]
    words = _draw_words(rng, profile.body_words, profile.body_cum, slots)
    out = [parts[0]]
    for index in range(slots):
        original = parts[2 * index + 1]
        word = words[index]
        if word in HEADING_KEYWORDS and index in template.heading_slots:
            word = original.lower()  # a `#### Command` heading would make the skill a gibb.eri.sh tool section
        out.append(word.capitalize() if original[0].isupper() else word)
        out.append(parts[2 * index + 2])
    return "".join(out)


# metadata written as a flow mapping, as clawdbot skills do: metadata: {"version":"1.0.0",...}
_FLOW_VERSION = re.compile(r'("version"\s*:\s*")[^"]*(")')


def render_skill_md(skill: Generated, profile: Profile) -> str:
    version = ".".join(map(str, skill.version)) if skill.version else None
    lines = []
    for key, entry in skill.template.frontmatter:
        if key == "name":
            lines.append(f"name: {skill.name}\n")
        elif key == "description":
            lines.append(f"description: {skill.description}\n")
        elif key == "version" and version:
            lines.append(f"version: {version}\n")
        elif key == "metadata" and version:
            entry = re.sub(r"^(\s+version\s*:\s*).*$", rf"\g<1>{version}", entry, flags=re.M)
            lines.append(_FLOW_VERSION.sub(rf"\g<1>{version}\g<2>", entry))
        else:
            lines.append(entry)
    return "---\n" + "".join(lines) + "---\n" + render_body(skill.template, profile, skill.body_seed)


def _publishers(rng: random.Random, profile: Profile, count: int) -> list[tuple[str, str]]:
    names: list[tuple[str, str]] = []
    taken: set[str] = set()
    parts = profile.name_parts or ["acme", "tools"]
    while len(names) < count:
        name = f"{rng.choice(parts)}-{rng.choice(parts)}"
        if name in taken:
            name = f"{name}-{len(names)}"
        taken.add(name)
        roll = rng.random()
        tier = "official" if roll < 0.02 else "verified" if roll < 0.12 else "community"
        names.append((name, tier))
    return names


def _skill_name(rng: random.Random, profile: Profile, taken: set[str]) -> str:
    parts = profile.name_parts or ["skill"]
    while True:
        name = "-".join(rng.choice(parts) for _ in range(rng.choice((2, 2, 3))))
        if name in taken:
            name = f"{name}-{rng.randrange(2, 100)}"
        if name not in taken and len(name) <= 64:
            taken.add(name)
            return name


def policy_yaml(publishers: list[tuple[str, str]]) -> str:
    lines = [
        "# Synthetic registry for the benchmark (bench/synthetic.py); same shape as the registry's own.",
        "title: Synthetic Skill Registry",
        "maintainers:",
        "  - bench-maintainer",
        "publishers:",
    ]
    for name, tier in publishers:
        lines += [f"  {name}:", f"    tier: {tier}", f"    namespaces: [{name}]", f"    maintainers: [{name}-bot]"]
    lines += [f"categories: [{', '.join(CATEGORIES)}]", "discovery:", "  exclude_risk: [critical]", ""]
    return "\n".join(lines)


def plan(profile: Profile, skills: int, seed: int) -> tuple[list[tuple[str, str]], list[Generated]]:
    rng = random.Random(f"skills:{skills}:{seed}")
    publishers = _publishers(rng, profile, max(2, round(skills / 20)))
    weights = list(accumulate(1 / (rank + 1) ** 1.1 for rank in range(len(publishers))))
    corpus = [t for t in profile.templates if not t.origin.startswith("scaffold:")]
    scaffolds = [t for t in profile.templates if t.origin.startswith("scaffold:")]
    names: dict[str, set[str]] = {}
    generated = []
    for _ in range(skills):
        publisher = publishers[bisect(weights, rng.random() * weights[-1])][0]
        template = rng.choice(scaffolds) if rng.random() < SCAFFOLD_WEIGHT else rng.choice(corpus)
        name = _skill_name(rng, profile, names.setdefault(publisher, set()))
        version = (rng.choice((0, 1, 1, 1, 2, 3)), rng.randrange(0, 8), rng.randrange(0, 5))
        generated.append(
            Generated(
                publisher,
                name,
                template,
                version if template.has_version else None,
                rng.getrandbits(63),
                _description(rng, profile),
            )
        )
    return publishers, generated


# -- writing the repository -------------------------------------------------------------------


class _Stream:
    """A git fast-import stream written straight to the process's stdin."""

    def __init__(self, pipe) -> None:
        self.pipe = pipe
        self.mark = 0
        self.mark_of_previous = 0

    def write(self, text: str) -> None:
        self.pipe.write(text.encode())

    def data(self, payload: bytes) -> None:
        self.pipe.write(b"data %d\n" % len(payload))
        self.pipe.write(payload)
        self.pipe.write(b"\n")

    def blob(self, payload: bytes) -> int:
        self.mark += 1
        self.pipe.write(b"blob\nmark :%d\n" % self.mark)
        self.data(payload)
        return self.mark

    def commit(self, message: str, author: str, when: int, first: bool) -> None:
        self.mark += 1
        self.write(f"commit refs/heads/main\nmark :{self.mark}\n")
        self.write(f"author {author} {when} +0000\ncommitter {author} {when} +0000\n")
        self.data(message.encode())
        if not first:
            self.write(f"from :{self.mark_of_previous}\n")
        self.mark_of_previous = self.mark

    def inline(self, path: str, payload: bytes, executable: bool = False) -> None:
        self.write(f"M {'100755' if executable else '100644'} inline {path}\n")
        self.data(payload)


def _bump(version: tuple[int, int, int], rng: random.Random) -> tuple[int, int, int]:
    roll = rng.random()
    if roll < 0.7:
        return (version[0], version[1], version[2] + 1)
    if roll < 0.95:
        return (version[0], version[1] + 1, 0)
    return (version[0] + 1, 0, 0)


def git_env(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "LANG": "C",
        "LC_ALL": "C",
    }


def generate(out: Path, skills: int, seed: int = 1, profile: Profile | None = None, commits: int | None = None) -> dict:
    """Write the repository into `out` (replaced), check it out, and return what was generated."""
    started = time.perf_counter()
    profile = profile or load_profile()
    publishers, generated = plan(profile, skills, seed)
    rng = random.Random(f"history:{skills}:{seed}")
    later = commits if commits is not None else 10 + skills // 500
    per_commit = 1 + skills // 1000

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    env = git_env(out)
    subprocess.run(["git", "init", "-q", "-b", "main", str(out)], check=True, env=env)
    process = subprocess.Popen(
        ["git", "fast-import", "--quiet", "--done"], cwd=out, stdin=subprocess.PIPE, env=env, bufsize=1 << 20
    )
    stream = _Stream(process.stdin)
    blob_marks: dict[bytes, int] = {}
    for skill in generated:  # support files are shared between skills of one template: one blob each
        for _, content, _ in skill.template.files:
            key = hashlib.sha256(content).digest()
            if key not in blob_marks:
                blob_marks[key] = stream.blob(content)
    bot = "Registry Import <import@registry.example>"
    stream.commit(f"Import {skills} skills", bot, EPOCH, first=True)
    stream.inline("registry.yaml", policy_yaml(publishers).encode())
    for skill in generated:
        stream.inline(f"{skill.path}/SKILL.md", render_skill_md(skill, profile).encode())
        for path, content, executable in skill.template.files:
            mode = "100755" if executable else "100644"
            stream.write(f"M {mode} :{blob_marks[hashlib.sha256(content).digest()]} {skill.path}/{path}\n")
    bumps = edits = 0
    versioned = [index for index, skill in enumerate(generated) if skill.version]
    for number in range(later):
        chosen = sorted(
            {rng.choice(versioned) if versioned and rng.random() < 0.6 else rng.randrange(len(generated))
             for _ in range(per_commit)}
        )  # fmt: skip
        first = generated[chosen[0]]
        author = f"{first.publisher} <{first.publisher}-bot@users.noreply.example>"
        stream.commit(f"Update {len(chosen)} skill(s) (change {number + 1})", author, EPOCH + (number + 1) * DAY, False)
        for index in chosen:
            skill = generated[index]
            skill.body_seed = rng.getrandbits(63)
            edits += 1
            if skill.version:
                skill.version = _bump(skill.version, rng)
                bumps += 1
            stream.inline(f"{skill.path}/SKILL.md", render_skill_md(skill, profile).encode())
    stream.write("done\n")
    process.stdin.close()
    if process.wait() != 0:
        raise RuntimeError("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=out, check=True, env=env)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=out, check=True, env=env, capture_output=True, text=True
    ).stdout.strip()
    info = {
        "skills": skills,
        "seed": seed,
        "head": head,
        "source": str(out / SKILLS_ROOT),
        "publishers": len(publishers),
        "tiers": dict(sorted(Counter(tier for _, tier in publishers).items())),
        "commits": 1 + later,
        "edits": edits,
        "version_bumps": bumps,
        "with_version": sum(1 for s in generated if s.version),
        "with_support_files": sum(1 for s in generated if s.template.files),
        "support_dirs": dict(
            sorted(
                Counter(
                    d for s in generated for d in {p.split("/")[0] for p, _, _ in s.template.files if "/" in p}
                ).most_common(8)
            )
        ),
        "dialect_templates": dict(
            sorted(Counter(d for s in generated for d in (s.template.dialects or (s.template.origin,))).items())
        ),
        "corpus_fingerprint": profile.fingerprint,
        "profile": profile.summary,
        "seconds": round(time.perf_counter() - started, 2),
        "skills_paths": [s.path for s in generated],
    }
    return info


def ensure(out: Path, skills: int, seed: int, profile: Profile | None = None) -> dict:
    """The repository for (skills, seed), reused when `out` already holds it (reset to its generated HEAD)."""
    marker = out.parent / f"{out.name}{MARKER}"
    if marker.is_file() and (out / ".git").is_dir():
        info = json.loads(marker.read_text())
        if info.get("skills") == skills and info.get("seed") == seed:
            env = git_env(out)
            subprocess.run(["git", "reset", "-q", "--hard", info["head"]], cwd=out, check=True, env=env)
            subprocess.run(["git", "clean", "-q", "-fdx"], cwd=out, check=True, env=env)
            info["reused"] = True
            return info
    info = generate(out, skills, seed, profile)
    marker.write_text(json.dumps(info) + "\n")
    info["reused"] = False
    return info


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Generate a synthetic skill registry as a git repository.")
    parser.add_argument("--skills", type=int, required=True, help="number of skills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the repository to write (replaced)")
    parser.add_argument("--commits", type=int, help="later commits (default 10 + skills/500)")
    parser.add_argument("--json", action="store_true", help="print what was generated as JSON")
    args = parser.parse_args(argv)
    info = generate(args.out, args.skills, args.seed, commits=args.commits)
    info.pop("skills_paths")
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(
            f"{info['skills']} skills, {info['publishers']} publishers, {info['commits']} commits "
            f"({info['version_bumps']} version bumps) in {info['seconds']} s; HEAD {info['head']}; "
            f"build with --source {info['source']}",
            file=sys.stdout,
        )


if __name__ == "__main__":
    main()
