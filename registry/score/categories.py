"""Categories and tags: validate a declared category or infer one, and normalise tags.

The category list comes from policy (default: skillli's six). A declared category (top-level
`category:`, else `metadata.category`, else whatever a dialect put in `skill.category`) is read
case-insensitively; one outside the list is reported and replaced by the inferred category.

Inference is deterministic keyword scoring. Every category has a keyword list (the table below,
or the policy's own); a keyword matches a word of the skill's text in its common forms
(deploy, deploys, deploying, deployed, deployment, deployer). Each distinct keyword found counts
once per place it appears, weighted by the place:

    name 6, tags 6, description 4, body headings 2, rest of the body 1 (at most 8 body points)

The highest total wins; ties go to the category listed first. No match at all gives `other`
with the evidence "no category keywords found"; a best total under 3 (say two words deep in the
body) gives `other` too, as too little evidence. A category's own name is always one of its
keywords, so a policy category without a keyword list can still be inferred.

Tags become lowercase slugs `[a-z0-9]+(-[a-z0-9]+)*`:

    "Machine Learning" -> machine-learning   "C++" -> cpp        "C#" -> csharp (one letter + #)
    "Node.js" -> nodejs (.js joins)          ".NET" -> dotnet    "R&D" -> r-and-d
    "Google+" -> google-plus                 "v1.2" -> v1-2      "snake_case" -> snake-case
    "Café" -> cafe (accents dropped)          "#devops" -> devops "飞书" -> dropped (nothing in a-z0-9)

Empty results and slugs over 50 characters are dropped; duplicates (after normalising) keep the
first occurrence; at most 20 tags are kept.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from registry.model import Finding, Skill
from registry.parse.body import body_lines
from registry.rules.base import I, Rule, W

DEFAULT_CATEGORIES: tuple[str, ...] = ("development", "creative", "enterprise", "data", "devops", "other")
FALLBACK = "other"
MAX_TAGS = 20
MAX_TAG_LENGTH = 50
BODY_CHARS = 200_000  # only the first 200,000 characters of the body are read for keywords

# Weights (integers, so ties are exact).
WEIGHTS = {"name": 6, "tags": 6, "description": 4, "headings": 2, "body": 1}
BODY_CAP = 8
MIN_SCORE = 3  # below this (e.g. two words deep in the body), the evidence is too thin: "other"

# Keywords a person would expect for each category. Write base forms: "deploy" also matches
# deploys/deploying/deployed/deployment. Phrases match consecutive words ("code review").
DEFAULT_KEYWORDS: Mapping[str, tuple[str, ...]] = {
    "development": (
        "code", "codebase", "programming", "programmer", "software", "develop", "debug", "bug", "bugfix",
        "refactor", "code review", "pull request", "commit", "git", "github", "gitlab", "repository", "repo",
        "branch", "worktree", "compile", "unit test", "test", "tdd", "lint", "typescript", "javascript",
        "python", "rust", "golang", "java", "kotlin", "swift", "ruby", "php", "react", "vue", "angular",
        "svelte", "next.js", "nextjs", "node.js", "nodejs", "npm", "frontend", "backend", "full stack",
        "graphql", "sdk", "library", "framework", "ide", "vscode", "html", "css", "web app", "webapp",
        "component", "microservice", "architecture", "implement", "stack trace", "playwright", "jest", "pytest",
        "mobile app", "android", "ios", "react native", "flutter", "firmware", "microcontroller", "mcp server",
        "plugin", "cli tool", "slash command", "subagent",
    ),
    "creative": (
        "creative", "art", "artwork", "artist", "generative art", "design", "drawing", "illustration", "paint",
        "sketch", "poster", "image", "photo", "photography", "picture", "logo", "brand", "typography", "font",
        "color", "palette", "aesthetic", "visual", "animate", "gif", "meme", "sticker", "emoji", "video",
        "film", "music", "song", "audio", "podcast", "voice", "speech", "text to speech", "tts", "story",
        "storytelling", "fiction", "poem", "poetry", "creative writing", "copywriting", "blog",
        "content creation", "canvas", "p5.js", "3d", "blender", "game", "comic", "figma", "photoshop",
        "midjourney", "stable diffusion", "comfyui", "theme",
    ),
    "enterprise": (
        "enterprise", "business", "company", "corporate", "organization", "productivity", "office", "meeting",
        "agenda", "calendar", "email", "gmail", "outlook", "inbox", "slack", "notion", "confluence", "jira",
        "linear", "asana", "trello", "project management", "ticket", "crm", "salesforce", "hubspot", "sales",
        "customer", "marketing", "campaign", "seo", "advertising", "finance", "financial", "accounting",
        "invoice", "payment", "payroll", "budget", "expense", "tax", "hr", "human resources", "recruit", "hire",
        "employee", "attendance", "compliance", "legal", "contract", "proposal", "docx", "word document", "pdf",
        "pptx", "powerpoint", "presentation", "slides", "memo", "internal communications", "newsletter",
        "announcement", "stakeholder", "okr", "kpi", "strategy", "procurement", "vendor", "approval", "feishu",
        "lark", "dingtalk", "wecom", "zoom", "google workspace", "sharepoint", "microsoft 365", "office 365",
        "tenant", "wiki", "knowledge base", "ecommerce", "shopify", "todo", "kanban",
    ),
    "data": (
        "data", "dataset", "database", "sql", "postgres", "postgresql", "mysql", "sqlite", "mongodb", "redis",
        "duckdb", "bigquery", "snowflake", "data warehouse", "etl", "csv", "parquet", "excel", "spreadsheet",
        "xlsx", "chart", "plot", "visualization", "dataviz", "dashboard", "analytics", "analysis",
        "data analysis", "statistics", "statistical", "metric", "machine learning", "ml", "deep learning",
        "neural network", "pandas", "numpy", "jupyter", "notebook", "scikit-learn", "pytorch", "tensorflow",
        "regression", "forecast", "time series", "scrape", "web scraping", "crawler", "tableau", "power bi",
        "looker", "data science", "data engineering", "mlops", "embedding", "vector database",
        "computer vision",
    ),
    "devops": (
        "devops", "deploy", "release", "ci", "ci/cd", "continuous integration", "github actions", "jenkins",
        "docker", "dockerfile", "container", "kubernetes", "k8s", "kubectl", "helm", "terraform", "ansible",
        "pulumi", "iac", "infrastructure", "cloud", "aws", "azure", "gcp", "google cloud", "ec2", "s3",
        "lambda", "serverless", "server", "nginx", "linux", "ubuntu", "sysadmin", "systemd", "cron", "ssh",
        "vps", "hosting", "dns", "ssl", "tls", "certificate", "firewall", "vpn", "tunnel", "cloudflare",
        "vercel", "netlify", "heroku", "monitoring", "observability", "grafana", "prometheus", "uptime",
        "incident", "on-call", "backup", "package manager", "homebrew", "apt", "vulnerability", "secrets",
        "vault", "proxy", "load balancer", "networking", "homelab", "pihole", "provision",
    ),
}  # fmt: skip

UNKNOWN_CATEGORY = Rule(
    "T001",
    W,
    "unknown category",
    "category '{value}' is not one of {choices}; the inferred category '{inferred}' is used instead",
    "Did you mean `category: {suggestion}`? The categories are {choices}.",
    "category: marketing",
)
CATEGORY_NORMALISED = Rule(
    "T002",
    I,
    "category normalised",
    "category '{value}' is read as '{canonical}'",
    "Write `category: {canonical}`; category names are lowercase.",
    "category: DevOps",
)
CATEGORY_UNUSABLE = Rule(
    "T003",
    W,
    "category not a name",
    "category is {found}, not one category name; the inferred category '{inferred}' is used instead",
    "Write one category as text, e.g. `category: {inferred}`.",
    "category: [data, devops]",
)
TAGS_NORMALISED = Rule(
    "T004",
    I,
    "tags normalised",
    "{count} tag(s) normalised to lowercase slugs: {changes}",
    "Write tags as lowercase words joined by hyphens, e.g. `tags: [{example}]`.",
    "tags: [Machine Learning, C++] (read as machine-learning, cpp)",
)
TAG_EMPTY = Rule(
    "T005",
    W,
    "tag dropped: no letters or digits",
    "{count} tag(s) dropped, no a-z or 0-9 characters are left after normalising: {tags}",
    "Write tags with ASCII letters or digits, e.g. a transliteration.",
    'tags: ["飞书", "---"]',
)
TAG_TOO_LONG = Rule(
    "T006",
    W,
    "tag dropped: too long",
    "tag '{tag}' has {length} characters after normalising; tags over {limit} are dropped",
    "Shorten the tag to one to three words.",
    "A 60-character sentence written as a tag.",
)
TAGS_DUPLICATE = Rule(
    "T007",
    I,
    "duplicate tags dropped",
    "{count} duplicate tag(s) dropped: {dropped}",
    "Remove the repeated tags.",
    "tags: [ci, CI, testing]",
)
TOO_MANY_TAGS = Rule(
    "T008",
    W,
    "more than 20 tags",
    "{count} tags; only the first {limit} are kept, dropped: {dropped}",
    "Keep the {limit} most relevant tags, most important first.",
    "A list of 25 tags.",
)
TAGS_UNREADABLE = Rule(
    "T009",
    W,
    "tags unreadable",
    "{what} is {found}, not text; it is ignored",
    'Write `tags: [testing, ci]` or `tags: "testing, ci"`.',
    "tags: {a: 1}",
)

RULES: tuple[Rule, ...] = (
    UNKNOWN_CATEGORY,
    CATEGORY_NORMALISED,
    CATEGORY_UNUSABLE,
    TAGS_NORMALISED,
    TAG_EMPTY,
    TAG_TOO_LONG,
    TAGS_DUPLICATE,
    TOO_MANY_TAGS,
    TAGS_UNREADABLE,
)


@dataclass(frozen=True)
class Categorisation:
    category: str
    inferred: bool
    evidence: tuple[str, ...]  # human-readable, e.g. ("description mentions 'docker', 'kubernetes'", "tag 'ci'")
    tags: tuple[str, ...]  # normalised
    findings: tuple[Finding, ...]


def categorise(
    skill: Skill,
    categories: Sequence[str] = DEFAULT_CATEGORIES,
    keywords: Mapping[str, Sequence[str]] | None = None,
) -> Categorisation:
    """The skill's category (declared or inferred, with evidence), its normalised tags, and findings.

    Does not change the skill: the score stage copies the result onto it.
    """
    choices = _choices(categories)
    index = _index(choices, _keyword_table(choices, keywords))
    path = skill.location.skill_md_path
    findings: list[Finding] = []
    tags = _tags(skill, path, findings)
    declared, line = _declared_category(skill)

    if isinstance(declared, str) and declared.strip():
        canonical = tag_slug(declared)
        if canonical in choices:
            if declared.strip() != canonical:
                findings.append(CATEGORY_NORMALISED.at(path, line, 1, value=declared.strip(), canonical=canonical))
            return Categorisation(canonical, False, (f"declared category '{canonical}'",), tags, tuple(findings))
        category, evidence = _infer(skill, tags, choices, index)
        suggestion = _suggest(declared, canonical, choices, index) or category
        findings.append(
            UNKNOWN_CATEGORY.at(
                path,
                line,
                1,
                value=_short(declared.strip()),
                choices=", ".join(choices),
                inferred=category,
                suggestion=suggestion,
            )
        )
        bad = f"declared category '{_short(declared.strip())}' is not one of the categories"
        return Categorisation(category, True, (bad, *evidence), tags, tuple(findings))

    category, evidence = _infer(skill, tags, choices, index)
    if declared is not None:
        found = "empty" if isinstance(declared, str) else _describe(declared)
        findings.append(CATEGORY_UNUSABLE.at(path, line, 1, found=found, inferred=category))
        evidence = (f"declared category is {found}", *evidence)
    return Categorisation(category, True, evidence, tags, tuple(findings))


# -- tags ------------------------------------------------------------------------------------

_SPECIAL = (
    (re.compile(r"\+\+"), "pp"),  # c++ -> cpp, notepad++ -> notepadpp
    (re.compile(r"\+"), " plus "),
    (re.compile(r"(?<![a-z0-9])([a-z])#"), r"\1sharp"),  # c# -> csharp, f# -> fsharp
    (re.compile(r"&"), " and "),
    (re.compile(r"(?<=[a-z0-9])\.js\b"), "js"),  # node.js -> nodejs
    (re.compile(r"(?:^|(?<=\s))\.(?=[a-z])"), "dot"),  # .net -> dotnet
)
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def tag_slug(text: str) -> str:
    """A lowercase slug of the text; "" when nothing in a-z0-9 is left."""
    text = unicodedata.normalize("NFKC", text).lower().strip()
    for pattern, replacement in _SPECIAL:
        text = pattern.sub(replacement, text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NOT_SLUG.sub("-", text).strip("-")


def normalise_tags(values: Sequence[str]) -> tuple[str, ...]:
    """Slugs, empty and over-long ones dropped, duplicates removed (first kept), at most 20."""
    kept: list[str] = []
    for value in values:
        slug = tag_slug(value)
        if slug and len(slug) <= MAX_TAG_LENGTH and slug not in kept:
            kept.append(slug)
    return tuple(kept[:MAX_TAGS])


def _tags(skill: Skill, path: str, findings: list[Finding]) -> tuple[str, ...]:
    raw, line, what = _raw_field(skill, "tags")
    values: list[str]
    if raw is None:
        values = [t for t in skill.tags if isinstance(t, str)]
    elif isinstance(raw, str):
        values = [part.strip() for part in raw.split(",") if part.strip()]
    elif isinstance(raw, list):
        values = []
        for number, item in enumerate(raw, start=1):
            if isinstance(item, str):
                if item.strip():
                    values.append(item.strip())
            elif item is not None:
                findings.append(TAGS_UNREADABLE.at(path, line, 1, what=f"tag {number}", found=_describe(item)))
    else:
        findings.append(TAGS_UNREADABLE.at(path, line, 1, what=what, found=_describe(raw)))
        values = [t for t in skill.tags if isinstance(t, str)]

    changes: list[tuple[str, str]] = []
    empty: list[str] = []
    duplicates: list[str] = []
    kept: list[str] = []
    first_of: dict[str, str] = {}
    for value in values:
        slug = tag_slug(value)
        if not slug:
            empty.append(f"'{_short(value)}'")
            continue
        if len(slug) > MAX_TAG_LENGTH:
            findings.append(TAG_TOO_LONG.at(path, line, 1, tag=_short(slug), length=len(slug), limit=MAX_TAG_LENGTH))
            continue
        if slug in first_of:
            same = first_of[slug]
            duplicates.append(f"'{_short(value)}'" + ("" if same == value else f" (same as '{_short(same)}')"))
            continue
        if slug != value:
            changes.append((value, slug))
        first_of[slug] = value
        kept.append(slug)
    if changes:
        listed = ", ".join(f"'{_short(old)}' -> '{new}'" for old, new in changes)
        example = ", ".join(dict.fromkeys(new for _, new in changes[:3]))
        findings.append(TAGS_NORMALISED.at(path, line, 1, count=len(changes), changes=listed, example=example))
    if empty:
        findings.append(TAG_EMPTY.at(path, line, 1, count=len(empty), tags=", ".join(empty)))
    if duplicates:
        findings.append(TAGS_DUPLICATE.at(path, line, 1, count=len(duplicates), dropped=", ".join(duplicates)))
    if len(kept) > MAX_TAGS:
        dropped = ", ".join(f"'{t}'" for t in kept[MAX_TAGS:])
        findings.append(TOO_MANY_TAGS.at(path, line, 1, count=len(kept), limit=MAX_TAGS, dropped=dropped))
    return tuple(kept[:MAX_TAGS])


# -- reading the declared values ---------------------------------------------------------------


def _raw_field(skill: Skill, key: str) -> tuple[Any, int | None, str]:
    """(value, line, what) of a top-level key, else of the key under metadata; (None, None, key) if absent."""
    document = skill.document
    frontmatter = document.frontmatter if isinstance(document.frontmatter, dict) else {}
    if frontmatter.get(key) is not None:
        return frontmatter[key], document.key_lines.get(key), f"'{key}'"
    metadata = frontmatter.get("metadata")
    if isinstance(metadata, dict) and metadata.get(key) is not None:
        return metadata[key], _metadata_line(skill, key), f"'metadata.{key}'"
    return None, document.key_lines.get(key), f"'{key}'"


_TOP_KEY = re.compile(r"[^\s#-][^:]*:")


def _metadata_line(skill: Skill, key: str) -> int | None:
    document = skill.document
    start = document.key_lines.get("metadata")
    if start is None:
        return None
    pattern = re.compile(r"""(?<![\w-])["']?""" + re.escape(key) + r"""["']?\s*:""")
    lines = document.text.split("\n")
    for index in range(start - 1, min(len(lines), max(start, document.body_line - 1))):
        text = lines[index]
        if index == start - 1:
            text = text.split(":", 1)[-1]  # metadata: {"category": ...}
        elif _TOP_KEY.match(text):
            break  # the next top-level key: the metadata block has ended
        if pattern.search(text):
            return index + 1
    return start


def _declared_category(skill: Skill) -> tuple[Any, int | None]:
    raw, line, _ = _raw_field(skill, "category")
    if raw is None and isinstance(skill.category, str):
        return skill.category, line
    return raw, line


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "not text"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- keywords and word forms -------------------------------------------------------------------

_VOWELS = frozenset("aeiou")
# Every byte but a-z and 0-9 becomes a space: a lower-cased text's runs of ASCII letters and digits
# (its words), split about twice as fast as a regular expression finds them. Non-ASCII characters
# encode to bytes of 0x80 and up, so they separate words too.
_WORD_BYTES = bytes(c if c in b"abcdefghijklmnopqrstuvwxyz0123456789" else 32 for c in range(256))


def _tokens(text: str) -> list[str]:
    """The runs of [a-z0-9] in the lower-cased text."""
    return text.lower().encode("utf-8", "surrogatepass").translate(_WORD_BYTES).decode("ascii").split()


@functools.lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """The forms of a keyword that count as the keyword.

    From a base form: plurals (-s, -es, -ies), -ing, -ed, -er(s), -ment(s) and -ation(s), with
    the usual spelling changes (deploy -> deploying, deployment; debug -> debugging;
    animate -> animation; visualize -> visualise, visualization). A keyword written as a plural
    (secrets, analytics) also matches its singular. Derived keywords are not reduced further:
    "marketing" does not match "market", nor "meeting" "meet". Generated forms that are not
    words never occur in text, so generating a few too many is harmless.
    """
    bases = {word}
    if len(word) > 4 and word.isalpha():
        if word.endswith("ies"):
            bases.add(word[:-3] + "y")
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
            bases.add(word[:-1])
    forms: set[str] = set()
    for base in bases:
        forms |= _inflect(base)
    return frozenset(forms)


def _inflect(w: str) -> set[str]:
    if len(w) < 3 or not w.isalpha():
        return {w}
    forms = _inflect_simple(w)
    if w.endswith("ize"):  # British spellings
        forms |= _inflect_simple(w[:-3] + "ise")
    elif w.endswith("yze"):
        forms |= _inflect_simple(w[:-3] + "yse")
    return forms


def _inflect_simple(w: str) -> set[str]:
    forms = {w}
    last = w[-1]
    if w.endswith(("s", "x", "z", "ch", "sh")):
        forms.add(w + "es")
    elif last == "y" and w[-2] not in _VOWELS:
        forms.add(w[:-1] + "ies")
    else:
        forms.add(w + "s")
    if last == "e":
        stem = w[:-1]
        forms |= {stem + "ing", w + "d", w + "r", w + "rs", w + "ment", w + "ments"}
        noun = stem + "ion" if w.endswith("ate") else stem + "ation"
        forms |= {noun, noun + "s"}
    elif last == "y" and w[-2] not in _VOWELS:
        forms |= {w + "ing", w[:-1] + "ied", w[:-1] + "ier", w[:-1] + "iers"}
    else:
        forms |= {w + "ing", w + "ed", w + "er", w + "ers", w + "ment", w + "ments", w + "ation", w + "ations"}
        if last not in _VOWELS and last not in "wxy" and w[-2] in _VOWELS and w[-3] not in _VOWELS:
            forms |= {w + last + "ing", w + last + "ed", w + last + "er", w + last + "ers"}
    return forms


@dataclass(frozen=True)
class _Keyword:
    category: str
    words: tuple[str, ...]  # the words before the last, matched exactly
    text: str


@dataclass(frozen=True)
class _Index:
    """Last-word form -> keywords ending in that form."""

    categories: tuple[str, ...]
    by_form: Mapping[str, tuple[_Keyword, ...]]


def _choices(categories: Sequence[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for category in categories:
        slug = tag_slug(category) if isinstance(category, str) else ""
        if slug and slug not in seen:
            seen.append(slug)
    return tuple(seen) or (FALLBACK,)


def _keyword_table(
    choices: tuple[str, ...], keywords: Mapping[str, Sequence[str]] | None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per category: the policy's list when it gives one, else the default; plus the category's name."""
    if not keywords:  # most registries keep the defaults: built once per set of categories, not per skill
        return _default_keyword_table(choices)
    return _build_keyword_table(choices, keywords)


@functools.lru_cache(maxsize=64)
def _default_keyword_table(choices: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return _build_keyword_table(choices, None)


def _build_keyword_table(
    choices: tuple[str, ...], keywords: Mapping[str, Sequence[str]] | None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    given = {tag_slug(k): v for k, v in (keywords or {}).items() if isinstance(k, str)}
    table = []
    for category in choices:
        words = given[category] if category in given else DEFAULT_KEYWORDS.get(category, ())
        words = tuple(w for w in ([str(w) for w in words] if not isinstance(words, str) else [words]) if w.strip())
        if category != FALLBACK:
            words = (category.replace("-", " "), *words)
        table.append((category, words))
    return tuple(table)


@functools.lru_cache(maxsize=64)
def _index(choices: tuple[str, ...], table: tuple[tuple[str, tuple[str, ...]], ...]) -> _Index:
    by_form: dict[str, list[_Keyword]] = {}
    for category, words in table:
        seen: set[tuple[str, ...]] = set()
        for text in words:
            parts = tuple(_tokens(text))
            if not parts or parts in seen:
                continue
            seen.add(parts)
            keyword = _Keyword(category, parts[:-1], text.strip().lower())
            for form in sorted(word_forms(parts[-1])):
                by_form.setdefault(form, []).append(keyword)
    return _Index(choices, {form: tuple(found) for form, found in by_form.items()})


def _matches(tokens: list[str], index: _Index) -> dict[str, dict[str, str]]:
    """category -> {keyword: surface words as first found}, in text order.

    Where keywords of different lengths end on the same word, only the longest counts
    ("mcp server" is development, not also "server" for devops).
    """
    found: dict[str, dict[str, str]] = {}
    by_form = index.by_form
    # Most words are no keyword's form: find the few that are in one pass before looking behind them.
    for position in itertools.compress(range(len(tokens)), map(by_form.__contains__, tokens)):
        candidates = by_form[tokens[position]]
        if not candidates:
            continue
        matched = [
            k
            for k in candidates
            if len(k.words) <= position and tuple(tokens[position - len(k.words) : position]) == k.words
        ]
        if not matched:
            continue
        longest = max(len(k.words) for k in matched)
        for keyword in matched:
            if len(keyword.words) == longest:
                surface = " ".join(tokens[position - longest : position + 1])
                found.setdefault(keyword.category, {}).setdefault(keyword.text, surface)
    return found


# -- inference ---------------------------------------------------------------------------------

_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*)$")
_PHRASES = {
    "name": "name mentions",
    "tags": "tags",
    "description": "description mentions",
    "headings": "body headings mention",
    "body": "body mentions",
}


def _split_body(body: str) -> tuple[str, str]:
    """(headings, the rest) of a Markdown body; code blocks count as the rest."""
    headings: list[str] = []
    rest: list[str] = []
    for body_line in body_lines(body[:BODY_CHARS]):
        if body_line.is_fence:
            continue
        line = body_line.text
        heading = _ATX.match(line) if not body_line.in_code and "#" in line[:4] else None
        (headings if heading else rest).append(heading.group(1) if heading else line)
    return "\n".join(headings), "\n".join(rest)


def _sources(skill: Skill, tags: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    name = skill.name if isinstance(skill.name, str) and skill.name.strip() else skill.location.folder.name
    description = skill.description if isinstance(skill.description, str) else ""
    headings, rest = _split_body(skill.document.body or "")
    return [
        ("name", _tokens(name)),
        ("tags", [token for tag in tags for token in ([*_tokens(tag), "\x00"])]),  # no phrases across tags
        ("description", _tokens(description)),
        ("headings", _tokens(headings)),
        ("body", _tokens(rest)),
    ]


def _infer(skill: Skill, tags: tuple[str, ...], choices: tuple[str, ...], index: _Index) -> tuple[str, tuple[str, ...]]:
    scores = dict.fromkeys(choices, 0)
    hits: dict[str, list[tuple[str, list[str]]]] = {c: [] for c in choices}
    for source, tokens in _sources(skill, tags):
        for category, found in _matches(tokens, index).items():
            if category not in scores:
                continue
            points = WEIGHTS[source] * len(found)
            scores[category] += min(points, BODY_CAP) if source == "body" else points
            hits[category].append((source, list(dict.fromkeys(found.values()))))
    best = max(choices, key=lambda c: (scores[c], -choices.index(c)))
    fallback = FALLBACK if FALLBACK in choices else choices[-1]
    if scores[best] == 0:
        return fallback, ("no category keywords found",)
    if scores[best] < MIN_SCORE:
        words = ", ".join(f"'{w}'" for _, found in hits[best] for w in found)
        return fallback, (f"too few category keywords (best: {best} with {words}, score {scores[best]} < {MIN_SCORE})",)
    evidence = [_describe_hits(source, words) for source, words in hits[best]]
    tied = [c for c in choices if c != best and scores[c] == scores[best]]
    if tied:
        evidence.append(f"tied with {', '.join(tied)} (score {scores[best]}); the first listed category wins")
    return best, tuple(evidence)


def _describe_hits(source: str, words: list[str]) -> str:
    shown = ", ".join(f"'{w}'" for w in words[:5])
    more = f" and {len(words) - 5} more" if len(words) > 5 else ""
    if source == "tags":
        return f"tag{'s' if len(words) > 1 else ''} {shown}{more}"
    return f"{_PHRASES[source]} {shown}{more}"


def _suggest(declared: str, canonical: str, choices: tuple[str, ...], index: _Index) -> str | None:
    """The valid category closest to an unknown one: by keywords (marketing -> enterprise), then spelling."""
    found = _matches(_tokens(declared.replace("-", " ").replace("_", " ")), index)
    counts = {c: len(found.get(c, {})) for c in choices}
    best = max(choices, key=lambda c: (counts[c], -choices.index(c)))
    if counts[best]:
        return best
    close = difflib.get_close_matches(canonical, choices, n=1, cutoff=0.6)
    return close[0] if close else None
