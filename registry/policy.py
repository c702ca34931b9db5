"""registry.yaml: who publishes what, at which tier, and the registry's own rules.

The file is validated against a JSON Schema (one place that documents every setting, see
docs/policy.md) and then for what a schema cannot say: a namespace owned twice, an override
for a rule that does not exist. Any problem stops the build with every message at once,
since tiers and ownership cannot be guessed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from registry.config import OUTPUT_MEANINGS, OUTPUT_PROFILES, Limits, Outputs
from registry.parse import safe_yaml

TIERS = ("community", "verified", "official")
RISK_LEVELS = ("low", "medium", "high", "critical")
DEFAULT_CATEGORIES = ("development", "creative", "enterprise", "data", "devops", "other")
POLICY_FILE = "registry.yaml"

_LOGIN = {"type": "string", "pattern": "^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$"}
_SLUG = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.-]*$"}

LIMIT_MEANINGS = {
    "skill_md_bytes": ("Bytes in one SKILL.md", "P018"),
    "frontmatter_bytes": ("Bytes in the frontmatter", "P017"),
    "yaml_depth": ("Nesting depth of the frontmatter YAML", "P014"),
    "yaml_nodes": ("YAML nodes in the frontmatter, counted after alias expansion", "P014"),
    "yaml_aliases": ("Alias uses (`*name`) in the frontmatter", "P014"),
    "file_bytes": ("Bytes in one published file; a larger file is not published", "L004"),
    "files_per_skill": ("Files in one skill; a skill with more is left out", "L005"),
    "skill_bytes": ("Bytes in all of one skill's files; a larger skill is left out", "L006"),
    "crawl_depth": ("Folder levels below the source the crawler descends", "L014"),
    "skill_md_lines": ("Lines in SKILL.md before a warning", "S017"),
    "skill_seconds": ("Seconds to read, validate and score one skill; a slower skill is left out", None),
}


def _limit_meaning(limit: dataclasses.Field) -> str:
    meaning, code = LIMIT_MEANINGS.get(limit.name, ("", None))
    finding = f"; finding `{code}`" if code else ""
    return f"{meaning} (default {limit.default:,}{finding})."


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "registry.yaml",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "description": "Site title."},
        "maintainers": {
            "type": "array", "items": _LOGIN, "uniqueItems": True,
            "description": "GitHub logins of the registry's maintainers: they may change any namespace "
            "and record overrides.",
        },
        "publishers": {
            "type": "object",
            "description": "Publisher name -> who they are and what they own.",
            "propertyNames": _SLUG,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "tier": {"enum": list(TIERS), "description": "community (default), verified or official."},
                    "namespaces": {
                        "type": "array", "items": _SLUG, "uniqueItems": True,
                        "description": "First path segments of skill ids this publisher owns (default: its own name).",
                    },
                    "maintainers": {"type": "array", "items": _LOGIN, "uniqueItems": True},
                    "display_name": {"type": "string"},
                    "url": {"type": "string", "pattern": "^https?://"},
                },
            },
        },
        "categories": {
            "type": "array",
            "description": "The category list (default: development, creative, enterprise, data, devops, other).",
            "items": {
                "oneOf": [
                    _SLUG,
                    {
                        "type": "object", "additionalProperties": False, "required": ["name"],
                        "properties": {"name": _SLUG, "keywords": {"type": "array", "items": {"type": "string"}}},
                    },
                ]
            },
        },
        "discovery": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "exclude_risk": {
                    "type": "array", "items": {"enum": list(RISK_LEVELS)}, "uniqueItems": True,
                    "description": "Risk levels listed on the site but left out of the .well-known indexes "
                    "(default: critical).",
                }
            },
        },
        "skills_sh": {
            "type": "object", "additionalProperties": False,
            "description": "How skills.sh groups this repository's skills: `skill-registry skills-sh` writes "
            "skills.sh.json from it (default: one grouping per category).",
            "properties": {
                "not_grouped": {
                    "enum": ["top", "bottom"],
                    "description": "Where skills.sh shows the skills no grouping lists (default: bottom).",
                },
                "groupings": {
                    "type": "array", "minItems": 1, "maxItems": 50,
                    "description": "Groupings to show instead of the categories, in this order (skills.sh reads "
                    "50 at most).",
                    "items": {
                        "type": "object", "additionalProperties": False, "required": ["title", "skills"],
                        "properties": {
                            "title": {"type": "string", "minLength": 1, "maxLength": 120,
                                      "description": "The section's title on skills.sh."},
                            "description": {"type": "string", "maxLength": 500,
                                            "description": "A sentence shown under the title."},
                            "skills": {
                                "type": "array", "minItems": 1, "maxItems": 500, "uniqueItems": True,
                                "items": {"type": "string", "pattern": "^[a-z0-9_.-]+(/[a-z0-9_.-]+)*$"},
                                "description": "Skill ids (publisher/name), in the order shown; each must be a "
                                "skill of the registry.",
                            },
                        },
                    },
                },
            },
        },
        "overrides": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "severity": {
                    "type": "object",
                    "propertyNames": {"pattern": "^[A-Z][0-9]{3}$"},
                    "additionalProperties": {"enum": ["error", "warning", "info", "off"]},
                    "description": "Rule code -> severity for this registry.",
                },
                "risk": {
                    "type": "array",
                    "description": "Maintainer-approved exceptions to the risk gate.",
                    "items": {
                        "type": "object", "additionalProperties": False,
                        "required": ["skill", "max_level", "reason", "approved_by"],
                        "properties": {
                            "skill": {"type": "string"},
                            "max_level": {"enum": list(RISK_LEVELS)},
                            "reason": {"type": "string", "minLength": 10},
                            "approved_by": _LOGIN,
                        },
                    },
                },
            },
        },
        "reviewers": {
            "type": "array",
            "description": "Outside reviewers: programs the build runs on every new or changed skill, each printing "
            "SARIF 2.1.0; their results are shown on the skill's page and in index.json under their name, apart "
            "from the registry's own findings (README \"Outside reviewers\").",
            "items": {
                "type": "object", "additionalProperties": False, "required": ["name", "command"],
                "properties": {
                    "name": {**_SLUG, "description": "The name its results are shown under."},
                    "command": {
                        "type": "array", "minItems": 2, "items": {"type": "string", "minLength": 1},
                        "description": "The program and its arguments, never a shell string; `{skill}` is "
                        "replaced by the path of a temporary copy of the skill's published files, `{output}` "
                        "(optional) by a file to write the SARIF to (else it is read from standard output).",
                    },
                    "version": {"type": "string", "minLength": 1,
                                "description": "The reviewer's version, part of the cache key of its reviews."},
                    "version_command": {
                        "type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                        "description": "A command printing its version (first line), run once a build: instead of "
                        "`version`.",
                    },
                    "timeout": {"type": "integer", "minimum": 1, "maximum": 3600,
                                "description": "Seconds one review may take before it is stopped (default 60)."},
                    "raises_level": {
                        "type": "boolean",
                        "description": "Whether an `error` result of this reviewer raises the skill's risk level to "
                        "at least high (default false: its results are shown, the level is ours).",
                    },
                },
            },
        },
        "fail_build_on_reviewer_error": {
            "type": "boolean",
            "description": "Whether a reviewer that is missing, times out, crashes or prints something other "
            "than SARIF fails the build (default false: a warning naming the reviewer and the skill).",
        },
        "outputs": {
            "type": ["string", "object"],
            "if": {"type": "string"}, "then": {"enum": list(OUTPUT_PROFILES)},
            "additionalProperties": False,
            "description": "Which optional outputs the build writes: a profile, `full` (the default: every output) "
            "or `lean` (no marketplaces, AI catalog or feeds: what agents and people need to find, read and install "
            "skills, the pages, index.json, both discovery layouts and each skill's own index, every published file "
            "and the search shards), or a mapping of outputs to true or false, starting from `profile` (default full). "
            "What each costs: README \"Optional outputs and what each costs\".",
            "properties": {
                "profile": {"enum": list(OUTPUT_PROFILES), "description": "The profile the other keys change "
                            "(default full)."},
                **{name: {"type": "boolean", "description": f"{meaning[0].upper()}{meaning[1:]}."}
                   for name, meaning in OUTPUT_MEANINGS.items()},
            },
        },
        "limits": {
            "type": "object", "additionalProperties": False,
            "description": "Bounds on untrusted input; exceeding one is a finding that names the limit and the value.",
            "properties": {
                f.name: {"type": "integer", "minimum": 1, "description": _limit_meaning(f)}
                for f in dataclasses.fields(Limits)
            },
        },
    },
}  # fmt: skip


class PolicyError(ValueError):
    def __init__(self, path: str, problems: list[str]):
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path = path
        self.problems = problems


@dataclass(frozen=True)
class Publisher:
    name: str
    tier: str = "community"
    namespaces: tuple[str, ...] = ()
    maintainers: tuple[str, ...] = ()
    display_name: str = ""


@dataclass(frozen=True)
class RiskOverride:
    skill: str
    max_level: str
    reason: str
    approved_by: str


@dataclass(frozen=True)
class SkillsShGrouping:
    """A section of skills.sh's page for the repository, as registry.yaml's `skills_sh.groupings` sets it."""

    title: str
    description: str | None
    skills: tuple[str, ...]  # skill ids, in the order shown


@dataclass(frozen=True)
class Reviewer:
    """An outside reviewer registry.yaml names (registry/reviewers.py runs it)."""

    name: str
    command: tuple[str, ...]  # argv, with {skill} (and optionally {output})
    version: str | None = None  # fixed, or
    version_command: tuple[str, ...] = ()  # run once a build, its first line
    timeout: int = 60
    raises_level: bool = False


@dataclass(frozen=True)
class Policy:
    source: str | None = None  # where it was read from; None for the built-in default
    title: str | None = None
    maintainers: tuple[str, ...] = ()
    publishers: Mapping[str, Publisher] = field(default_factory=dict)
    categories: tuple[str, ...] = DEFAULT_CATEGORIES
    category_keywords: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    exclude_risk: tuple[str, ...] = ("critical",)
    severity: Mapping[str, str] = field(default_factory=dict)
    risk_overrides: tuple[RiskOverride, ...] = ()
    limits: Limits = field(default_factory=Limits)
    skills_sh_not_grouped: str = "bottom"
    skills_sh_groupings: tuple[SkillsShGrouping, ...] = ()  # empty: one grouping per category
    reviewers: tuple[Reviewer, ...] = ()
    fail_build_on_reviewer_error: bool = False
    outputs: Outputs = field(default_factory=Outputs)

    def owner_of(self, namespace: str) -> Publisher | None:
        for publisher in self.publishers.values():
            if namespace in publisher.namespaces:
                return publisher
        return None

    def risk_override(self, skill_id: str) -> RiskOverride | None:
        return next((o for o in self.risk_overrides if o.skill == skill_id), None)


def find_policy(source: Path) -> Path | None:
    """registry.yaml at the source root, else at the root of the git repository holding it."""
    candidate = source / POLICY_FILE
    if candidate.is_file():
        return candidate
    for parent in source.resolve().parents:
        if (parent / ".git").exists():
            candidate = parent / POLICY_FILE
            return candidate if candidate.is_file() else None
    return None


def load_policy(path: Path | None, known_codes: Callable[[], Collection[str]] | None = None) -> Policy:
    """The policy at `path` (defaults when None). `known_codes` gives every rule code, to check severity
    overrides against; it is called only when the policy overrides a severity."""
    if path is None:
        return Policy()
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PolicyError(shown, [f"cannot read: {err}"]) from err
    try:
        safe_yaml.check_bounds(text, max_depth=16, max_nodes=200_000)
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except safe_yaml.YamlLimitError as err:
        raise PolicyError(shown, [str(err)]) from err
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise PolicyError(shown, [f"{where}invalid YAML: {getattr(err, 'problem', err)}"]) from err
    return parse_policy(data if data is not None else {}, shown, known_codes)


def parse_policy(
    data: Any, shown: str = POLICY_FILE, known_codes: Callable[[], Collection[str]] | None = None
) -> Policy:
    import jsonschema  # only when a policy is read: a build that finds nothing changed never needs it

    validator = jsonschema.Draft202012Validator(SCHEMA)
    problems = [
        f"{'.'.join(str(p) for p in error.absolute_path) or '(top level)'}: {_schema_message(error)}"
        for error in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    ]
    if problems:
        raise PolicyError(shown, problems)

    publishers: dict[str, Publisher] = {}
    owners: dict[str, str] = {}
    for name, entry in sorted((data.get("publishers") or {}).items()):
        entry = entry or {}
        namespaces = tuple(entry.get("namespaces") or [name])
        for namespace in namespaces:
            if namespace in owners:
                problems.append(
                    f"publishers.{name}.namespaces: namespace '{namespace}' is already owned by '{owners[namespace]}'"
                )
            owners.setdefault(namespace, name)
        publishers[name] = Publisher(
            name=name,
            tier=entry.get("tier", "community"),
            namespaces=namespaces,
            maintainers=tuple(entry.get("maintainers") or ()),
            display_name=entry.get("display_name", ""),
        )
    categories: list[str] = []
    keywords: dict[str, tuple[str, ...]] = {}
    for item in data.get("categories") or DEFAULT_CATEGORIES:
        name = item if isinstance(item, str) else item["name"]
        if name in categories:
            problems.append(f"categories: '{name}' is listed twice")
        categories.append(name)
        if isinstance(item, dict) and item.get("keywords"):
            keywords[name] = tuple(item["keywords"])
    overrides = data.get("overrides") or {}
    severity = dict(overrides.get("severity") or {})
    if severity and known_codes is not None:
        codes = known_codes()
        for code in sorted(severity):
            if code not in codes:
                problems.append(f"overrides.severity.{code}: no rule has this code (see docs/rules.md)")
    maintainers = tuple(data.get("maintainers") or ())
    risk_overrides = []
    for index, item in enumerate(overrides.get("risk") or []):
        if item["approved_by"] not in maintainers:
            problems.append(f"overrides.risk.{index}.approved_by: '{item['approved_by']}' is not a registry maintainer")
        risk_overrides.append(RiskOverride(item["skill"], item["max_level"], item["reason"], item["approved_by"]))
    reviewers = _reviewers(data.get("reviewers") or [], problems)
    if problems:
        raise PolicyError(shown, problems)
    limits = dataclasses.replace(Limits(), **(data.get("limits") or {}))
    exclude = tuple((data.get("discovery") or {}).get("exclude_risk", ["critical"]))
    skills_sh = data.get("skills_sh") or {}
    groupings = tuple(
        SkillsShGrouping(item["title"], item.get("description"), tuple(item["skills"]))
        for item in skills_sh.get("groupings") or ()
    )
    return Policy(
        shown, data.get("title"), maintainers, publishers, tuple(categories), keywords, exclude, severity,
        tuple(risk_overrides), limits, skills_sh.get("not_grouped", "bottom"), groupings, reviewers,
        bool(data.get("fail_build_on_reviewer_error", False)), _outputs(data.get("outputs")),
    )  # fmt: skip


def _outputs(value: str | dict | None) -> Outputs:
    """A profile's name, or a mapping of outputs to booleans over `profile` (both checked by the schema)."""
    if value is None or isinstance(value, str):
        return OUTPUT_PROFILES[value or "full"]
    chosen = {key: on for key, on in value.items() if key != "profile"}
    return dataclasses.replace(OUTPUT_PROFILES[value.get("profile", "full")], **chosen)


def _reviewers(items: list[dict], problems: list[str]) -> tuple[Reviewer, ...]:
    reviewers = []
    for index, item in enumerate(items):
        where = f"reviewers.{index}"
        if any(r.name == item["name"] for r in reviewers):
            problems.append(f"{where}.name: '{item['name']}' is listed twice")
        if not any("{skill}" in arg for arg in item["command"][1:]):
            problems.append(f"{where}.command: no argument holds {{skill}}, the skill folder to review")
        if ("version" in item) == ("version_command" in item):
            problems.append(f"{where}: give either version or version_command (the cache key of its reviews)")
        reviewer = Reviewer(
            item["name"], tuple(item["command"]), item.get("version"), tuple(item.get("version_command") or ()),
            item.get("timeout", 60), bool(item.get("raises_level", False)),
        )  # fmt: skip
        reviewers.append(reviewer)
    return tuple(reviewers)


def _schema_message(error: Any) -> str:  # a jsonschema.ValidationError
    if error.validator == "enum":
        return f"{error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown setting")
    return error.message


def policy_markdown() -> str:
    """docs/policy.md, from the schema: one source for validation and documentation."""
    lines = [
        "# registry.yaml",
        "",
        "The registry's policy file, at the root of the registry repository (or beside `--source`,",
        "or given with `--policy`). Generated from the schema in `registry/policy.py` by",
        "`skill-registry docs`; a test fails when this file is out of date.",
        "",
        "| setting | type | meaning |",
        "| --- | --- | --- |",
    ]

    def walk(node: dict, prefix: str) -> None:
        for name, spec in node.get("properties", {}).items():
            key = f"{prefix}{name}"
            lines.append(f"| `{key}` | {_type_of(spec)} | {spec.get('description', '')} |")
            walk(spec, key + ".")
            if isinstance(spec.get("additionalProperties"), dict):
                walk(spec["additionalProperties"], key + ".<name>.")
            if isinstance(spec.get("items"), dict):
                walk(spec["items"], key + "[].")

    walk(SCHEMA, "")
    lines += [
        "",
        "Checks beyond the schema: a namespace may be owned by one publisher only; severity overrides",
        "must name existing rule codes; risk overrides must be approved by a registry maintainer;",
        "`skills_sh.groupings` must name skills the registry has, each once (checked by `skill-registry skills-sh`);",
        "each reviewer has a name of its own, a `{skill}` argument, and either `version` or `version_command`.",
        "",
    ]
    return "\n".join(lines)


def _type_of(spec: dict) -> str:
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])
    if "oneOf" in spec:
        return "name or {name, keywords}"
    if "enum" in spec.get("then", {}):
        return " \\| ".join(f"`{v}`" for v in spec["then"]["enum"]) + " or mapping"
    kind = spec.get("type", "")
    if kind == "array" and isinstance(spec.get("items"), dict):
        inner = spec["items"]
        return f"list of {_type_of(inner) if 'enum' in inner or 'oneOf' in inner else inner.get('type', 'item')}"
    return str(kind)
