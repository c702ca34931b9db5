"""Rules a pull request review adds to validation (registry/pr.py)."""

from registry.rules.base import E, Rule, W

NOT_BUMPED = Rule(
    "Q001",
    E,
    "content changed without a version bump",
    "the content changed ({old_digest} -> {new_digest}) but the version stayed {version}",
    "Raise the version (at least the patch number: {suggestion}).",
    "Editing SKILL.md and keeping version: 1.2.0.",
)
VERSION_DOWN = Rule(
    "Q002",
    E,
    "version went down",
    "the version goes from {old} down to {new}",
    "Use a version above {old}.",
    "2.0.0 -> 1.9.0",
)
NEEDS_SEMVER = Rule(
    "Q003",
    E,
    "changed skill without a semver version",
    "{problem}; every added or changed skill needs a semantic version so agents can pin it",
    'Add `version: "{suggestion}"` (or `metadata.version`).',
    "A new skill with no version.",
)
NOT_OWNER = Rule(
    "Q004",
    E,
    "namespace not owned by the author",
    "{actor} may not change '{namespace}': {why}",
    "Ask a maintainer of '{namespace}' to open the pull request, or to add you to its maintainers in registry.yaml.",
    "A pull request by mallory changing skills-index/acme/...",
)
POLICY_NOT_MAINTAINER = Rule(
    "Q005",
    E,
    "registry.yaml changed by a non-maintainer",
    "{actor} is not a registry maintainer; only maintainers may change registry.yaml",
    "Leave registry.yaml out of the pull request, or ask a maintainer to make the change.",
    "A pull request that adds its author as an official publisher.",
)
POLICY_INVALID = Rule(
    "Q006",
    E,
    "registry.yaml no longer valid",
    "registry.yaml at the head commit is invalid: {problem}",
    "Fix the policy file; see docs/policy.md.",
    "tier: gold",
)
RISK_GATE = Rule(
    "Q007",
    E,
    "risk too high to merge",
    "the skill's risk level is {level}; merging needs a maintainer override in registry.yaml",
    "Remove what the risk findings point at, or ask a maintainer to record an override under overrides.risk.",
    "A skill that pipes a download from a raw IP address into a shell.",
)
DUPLICATE_NAME = Rule(
    "Q008",
    E,
    "name already taken",
    "the name '{name}' is already used by {others}",
    "Choose a name nobody in the registry uses.",
    "A second skill-creator.",
)
REMOVED = Rule(
    "Q009",
    W,
    "skill removed",
    "the skill is removed; links to it and installs of it break",
    "Prefer withdrawing it (a tombstone with the reason) or deprecating it with a replacement.",
    "Deleting a skill folder.",
)
SKILL_ERROR = Rule(
    "Q010",
    E,
    "skill does not validate",
    "the skill has {count} validation error(s) (listed below)",
    "Fix the errors: `skill-registry validate` on the skill folder ({folder}) shows them with their fixes.",
    "A skill with invalid YAML.",
)

LIFECYCLE_NOT_OWNER = Rule(
    "Q011",
    E,
    "lifecycle change outside the author's namespaces",
    "{actor} may not change the lifecycle entry '{entry}': {why}",
    "Only owners of a skill's namespace (or registry maintainers) may deprecate, rename, withdraw or yank it.",
    "A pull request withdrawing another publisher's skill.",
)
LIFECYCLE_INVALID = Rule(
    "Q012",
    E,
    "lifecycle.yaml invalid",
    "lifecycle.yaml at the head commit is invalid: {problem}",
    "Fix the entries; see the lifecycle section of CONTRIBUTING.md.",
    "renamed: {acme/a: acme/missing}",
)
COPY_OF = Rule(
    "Q013",
    W,
    "adds a copy of another skill",
    "this pull request {adds} a copy of {other} ({percent}% the same) with these changes: {changes}{risk}",
    "Reviewers: read the added lines against {other}. Authors: say where the skill comes from, or contribute "
    "the change to {other} instead of publishing a copy.",
    "A community skill that is an official skill with one line added to its helper script.",
)

RULES = (
    NOT_BUMPED, VERSION_DOWN, NEEDS_SEMVER, NOT_OWNER, POLICY_NOT_MAINTAINER, POLICY_INVALID, RISK_GATE,
    DUPLICATE_NAME, REMOVED, SKILL_ERROR, COPY_OF,
)  # fmt: skip
