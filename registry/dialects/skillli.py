"""skillli registry fields and quiz gates (seed 003, skillli's src/core/schema.ts).

Registry fields may be written at the top level or under `metadata:`; the top level wins.
`version`, `author`, `tags`, `homepage` and `repository` are also used by other tools (gibb.eri.sh,
ClawHub, Claude Code plugins), so this dialect fills them into the model whenever they are
present, but it names a skill "skillli" only when the skill uses something skillli-specific:
`trust-level`, `category`, `tags`, `quiz`, `checksum`, `min-skillli-version`, `repository`, or
one of those under `metadata` (a metadata `category` only when it is one of skillli's).

Quiz gates (`quiz:`, a list or a single mapping) hold questions with 2-6 options, at least one
correct, and `on-correct` / `on-incorrect` branches: `goto` a heading of the body,
`load-reference` a file of the skill, `load-skill` another skill (checked registry-wide).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_bool, as_float, as_str_list, describe_type
from registry.model import Document, Finding, Quiz, QuizBranch, QuizOption, QuizQuestion, Skill, SkillReference
from registry.rules.base import E, Rule, W

FIELD_DISAGREES = Rule(
    "K001",
    W,
    "top level and metadata disagree",
    "'{field}' is {top} at the top level and {meta} under metadata; skillli uses the top-level value",
    "Keep one of the two (skillli recommends `metadata:`).",
    'version: 3.0.0 with metadata.version: "1.0.0"',
)
FIELD_NOT_TEXT = Rule(
    "K002",
    W,
    "registry field not text",
    "'{field}' is {found}; skillli expects text",
    "Write `{field}:` as a single line of text.",
    "author: [a, b]",
)
TRUST_LEVEL_UNKNOWN = Rule(
    "K008",
    W,
    "unknown trust level",
    "trust-level '{value}' is not one of community, verified, official; skillli rejects the metadata",
    "Remove it (community is the default) or use one of community, verified, official.",
    "trust-level: trusted",
)
URL_INVALID = Rule(
    "K010",
    W,
    "not an http(s) URL",
    "'{field}' is {value}, not an http(s) URL",
    "Write a full URL, e.g. `{field}: https://github.com/owner/repo`.",
    "homepage: github.com/me/skill",
)
CHECKSUM_INVALID = Rule(
    "K011",
    W,
    "checksum malformed",
    "checksum {value} is not in skillli's form sha256:<64 hexadecimal digits>",
    "Remove it: `skillli publish` computes the checksum.",
    "checksum: abc123",
)
MIN_VERSION_INVALID = Rule(
    "K012",
    W,
    "min-skillli-version malformed",
    "min-skillli-version is {value}, not a version number such as 0.2.0",
    "Write `min-skillli-version: 0.2.0`.",
    "min-skillli-version: latest",
)
QUIZ_INVALID = Rule(
    "K013",
    E,
    "quiz unreadable",
    "{where} is {found}; a quiz is a mapping (or a list of mappings) with questions",
    "See the quiz example in the skillli format: `quiz: [{{title: ..., questions: [...]}}]`.",
    "quiz: true",
)
QUIZ_NO_QUESTIONS = Rule(
    "K014",
    E,
    "quiz without questions",
    "{where} has no questions; a quiz needs at least one",
    "Add `questions:` with at least one question.",
    "quiz: {title: Check}",
)
QUESTION_INVALID = Rule(
    "K015",
    E,
    "question unreadable",
    "{where} {problem}",
    "Write each question as a mapping with `question:` text and `options:`.",
    'questions: ["What?"]',
)
OPTION_COUNT = Rule(
    "K016",
    E,
    "wrong number of options",
    "{where} has {count} option(s); skillli needs 2 to 6",
    "Give the question 2 to 6 options.",
    "A question with one option.",
)
NO_CORRECT_OPTION = Rule(
    "K017",
    E,
    "no correct option",
    "{where} has no option marked `correct: true`",
    "Mark the right answer with `correct: true`.",
    "Three options, none correct.",
)
OPTION_INVALID = Rule(
    "K018",
    W,
    "option unreadable",
    "{where} {problem}",
    "Write each option as `- label: text` with `correct: true` on the right one(s).",
    "options: [Yes, No]",
)
PASSING_SCORE_INVALID = Rule(
    "K019",
    E,
    "passing-score invalid",
    "{where} has passing-score {value}; it must be a number from 0 to 100",
    "Write `passing-score: 80` (percent of correct answers).",
    "passing-score: 150",
)
GOTO_MISSING = Rule(
    "K020",
    W,
    "goto target missing",
    "{where} jumps to '{target}', but the body has no such heading",
    "Add the heading `{target}` to the body or fix the target.",
    'goto: "## Setup Steps" with no such section',
)
REFERENCE_MISSING = Rule(
    "K021",
    W,
    "load-reference target missing",
    "{where} loads '{target}', which is not in the skill folder",
    "Add the file or fix the path (relative to the skill folder).",
    "load-reference: references/auth.md",
)
SKILL_MISSING = Rule(
    "K022",
    W,
    "load-skill target missing",
    "{where} loads the skill '{target}', which is not published in this registry",
    "Publish that skill too or fix the name.",
    "load-skill: security-basics",
)
BRANCH_INVALID = Rule(
    "K023",
    W,
    "branch unreadable",
    "{where} {problem}",
    "Write a branch as a mapping with one of goto, load-reference or load-skill (and an optional message).",
    "on-incorrect: retry",
)
GATE_NOT_BOOLEAN = Rule(
    "K024",
    W,
    "gate not a boolean",
    "{where} has gate {value}, not true or false",
    "Write `gate: true` or `gate: false`.",
    "gate: always",
)

RULES = (
    FIELD_DISAGREES,
    FIELD_NOT_TEXT,
    TRUST_LEVEL_UNKNOWN,
    URL_INVALID,
    CHECKSUM_INVALID,
    MIN_VERSION_INVALID,
    QUIZ_INVALID,
    QUIZ_NO_QUESTIONS,
    QUESTION_INVALID,
    OPTION_COUNT,
    NO_CORRECT_OPTION,
    OPTION_INVALID,
    PASSING_SCORE_INVALID,
    GOTO_MISSING,
    REFERENCE_MISSING,
    SKILL_MISSING,
    BRANCH_INVALID,
    GATE_NOT_BOOLEAN,
)

REGISTRY_FIELDS = (
    "version",
    "author",
    "tags",
    "category",
    "trust-level",
    "repository",
    "homepage",
    "checksum",
    "min-skillli-version",
)
CATEGORIES = ("development", "creative", "enterprise", "data", "devops", "other")
TRUST_LEVELS = ("community", "verified", "official")
SPECIFIC_TOP = ("trust-level", "category", "tags", "quiz", "checksum", "min-skillli-version", "repository")
SPECIFIC_METADATA = ("trust-level", "checksum", "min-skillli-version", "repository")
BRANCH_KEYS = ("on-correct", "on-incorrect")
BRANCH_ACTIONS = ("goto", "load-reference", "load-skill")
CHECKSUM = re.compile(r"sha256:[0-9a-f]{64}")
VERSION_LIKE = re.compile(r"v?\d+(\.\d+){0,2}([-+][0-9A-Za-z.+-]*)?")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


class SkillliDialect:
    key = "skillli"
    title = "skillli"
    fields = frozenset({*REGISTRY_FIELDS, "quiz"})
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        metadata = frontmatter.get("metadata")
        if any(frontmatter.get(key) is not None for key in REGISTRY_FIELDS) or "quiz" in frontmatter:
            return True
        return isinstance(metadata, dict) and any(metadata.get(key) is not None for key in REGISTRY_FIELDS)

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        metadata = frontmatter.get("metadata")
        metadata = metadata if isinstance(metadata, dict) else {}
        if not _is_skillli(frontmatter, metadata) and self.key in skill.dialects:
            # Only fields other tools share: fill the model, but do not name the skill "skillli".
            skill.dialects.remove(self.key)
        reader = _Reader(skill, context, frontmatter, metadata)
        reader.registry_fields()
        if "quiz" in frontmatter:
            reader.quizzes(frontmatter["quiz"])
            skill.references.extend(_load_skill_references(skill.document, frontmatter["quiz"]))

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        path = skill.location.skill_md_path
        return [
            SKILL_MISSING.at(path, ref.line, ref.column, where=ref.where, target=ref.target)
            for ref in skill.references
            if ref.dialect == self.key and ref.target not in registry.names
        ]


def _load_skill_references(document: Document, quiz: Any) -> Iterator[SkillReference]:
    """Every quiz branch that loads another skill, with the line and column of its target."""
    lines = document.text.split("\n")[: max(0, document.body_line - 1)]
    cursor = 0
    for where, action, target in iter_branches(quiz):
        if action != "load-skill":
            continue
        line, column = None, None
        for index in range(cursor, len(lines)):
            text = lines[index]
            if "load-skill" in text and target in text:
                line, column = index + 1, text.find(target, text.find("load-skill")) + 1
                cursor = index + 1
                break
        yield SkillReference(SkillliDialect.key, target, where, line, column)


def iter_branches(value: Any) -> Iterator[tuple[str, str, str]]:
    """(where, action, target) for every readable quiz branch, in file order."""
    items = [value] if isinstance(value, dict) else value if isinstance(value, list) else []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            continue
        questions = item.get("questions")
        questions = [questions] if isinstance(questions, dict) else questions if isinstance(questions, list) else []
        for q_number, entry in enumerate(questions, start=1):
            if not isinstance(entry, dict):
                continue
            for key in BRANCH_KEYS:
                branch = entry.get(key)
                if not isinstance(branch, dict):
                    continue
                for action in BRANCH_ACTIONS:
                    target = branch.get(action)
                    if isinstance(target, str) and target.strip():
                        yield f"quiz {number}, question {q_number} ({key})", action, target.strip()


def _is_skillli(frontmatter: Mapping, metadata: Mapping) -> bool:
    if any(frontmatter.get(key) is not None for key in SPECIFIC_TOP) or "quiz" in frontmatter:
        return True
    if any(metadata.get(key) is not None for key in SPECIFIC_METADATA):
        return True
    category = metadata.get("category")
    return isinstance(category, str) and category.strip().lower() in CATEGORIES


def _quote(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(value) + "]"
    return describe_type(value)


class _Reader:
    def __init__(self, skill: Skill, context: ParseContext, frontmatter: Mapping, metadata: Mapping):
        self.skill = skill
        self.context = context
        self.path = context.path
        self.out = skill.findings
        self.frontmatter = frontmatter
        self.metadata = metadata
        self.text_lines = skill.document.text.split("\n")

    # -- locations -------------------------------------------------------------------------

    def key_line(self, key: str) -> int | None:
        return self.skill.document.key_lines.get(key)

    def line_of(self, top_key: str, needle: str, after: int | None = None) -> int | None:
        return self.locate(top_key, needle, after)[0]

    def locate(self, top_key: str, needle: str, after: int | None = None) -> tuple[int | None, int | None]:
        """(line, column) of needle in the frontmatter at or after `after` (default: the key's line)."""
        start = after if after is not None else self.key_line(top_key)
        if start is None:
            return None, None
        end = min(len(self.text_lines), self.skill.document.body_line - 1)
        for index in range(max(0, start - 1), end):
            column = self.text_lines[index].find(needle)
            if column >= 0:
                return index + 1, column + 1
        return start, None

    def field_line(self, key: str, source: str) -> int | None:
        if source == "top":
            return self.key_line(key)
        return self.line_of("metadata", f"{key}:") or self.key_line("metadata")

    # -- registry fields -------------------------------------------------------------------

    def value(self, key: str) -> tuple[Any, str]:
        """The effective value and where it came from ("top" or "metadata"); (None, "") if absent."""
        top = self.frontmatter.get(key)
        meta = self.metadata.get(key)
        if top is not None and meta is not None and _normal(key, top) != _normal(key, meta):
            self.out.append(
                FIELD_DISAGREES.at(self.path, self.key_line(key), 1, field=key, top=_quote(top), meta=_quote(meta))
            )
        if top is not None:
            return top, "top"
        if meta is not None:
            return meta, "metadata"
        return None, ""

    def registry_fields(self) -> None:
        skill, path, out = self.skill, self.path, self.out
        for key in ("version", "author"):
            value, source = self.value(key)
            if value is None:
                continue
            if not isinstance(value, str):
                out.append(
                    FIELD_NOT_TEXT.at(path, self.field_line(key, source), 1, field=key, found=describe_type(value))
                )
                continue
            if value.strip():
                setattr(skill, key, value.strip())

        # Tags and category are read here as written; registry/score/categories.py validates and
        # normalises them for every skill against the registry's own category list.
        value, _ = self.value("tags")
        tags = as_str_list(value) if value is not None else None
        if tags:
            skill.tags = list(dict.fromkeys(tags))
        value, _ = self.value("category")
        if isinstance(value, str) and value.strip():
            skill.category = value.strip()

        value, source = self.value("trust-level")
        if value is not None:
            line = self.field_line("trust-level", source)
            if not isinstance(value, str):
                out.append(FIELD_NOT_TEXT.at(path, line, 1, field="trust-level", found=describe_type(value)))
            else:
                skill.settings["trust-level"] = value.strip()
                # A known claim is weighed against what the skill earned in registry/score/trust.py (U001).
                if value.strip() not in TRUST_LEVELS:
                    out.append(TRUST_LEVEL_UNKNOWN.at(path, line, 1, value=value))

        for key in ("homepage", "repository"):
            value, source = self.value(key)
            if value is None:
                continue
            line = self.field_line(key, source)
            if isinstance(value, str) and _is_http_url(value.strip()):
                setattr(skill, key, value.strip())
            else:
                out.append(URL_INVALID.at(path, line, 1, field=key, value=_quote(value)))

        value, source = self.value("checksum")
        if value is not None:
            line = self.field_line("checksum", source)
            if isinstance(value, str):
                skill.settings["checksum"] = value.strip()
            if not (isinstance(value, str) and CHECKSUM.fullmatch(value.strip())):
                out.append(CHECKSUM_INVALID.at(path, line, 1, value=_quote(value)))

        value, source = self.value("min-skillli-version")
        if value is not None:
            line = self.field_line("min-skillli-version", source)
            if isinstance(value, str) and VERSION_LIKE.fullmatch(value.strip()):
                skill.settings["min-skillli-version"] = value.strip()
            else:
                out.append(MIN_VERSION_INVALID.at(path, line, 1, value=_quote(value)))

    # -- quizzes ---------------------------------------------------------------------------

    def quizzes(self, value: Any) -> None:
        line = self.key_line("quiz")
        if value is None:
            return
        if isinstance(value, dict):
            items = [value]
        elif isinstance(value, list):
            items = value
        else:
            self.out.append(QUIZ_INVALID.at(self.path, line, 1, where="quiz", found=describe_type(value)))
            return
        headings = body_headings(self.skill.document.body)
        for number, item in enumerate(items, start=1):
            where = f"quiz {number}"
            if not isinstance(item, dict):
                self.out.append(QUIZ_INVALID.at(self.path, line, 1, where=where, found=describe_type(item)))
                continue
            quiz = self.quiz(item, number, where, headings)
            self.skill.quizzes.append(quiz)

    def quiz(self, item: dict, number: int, where: str, headings: set[str]) -> Quiz:
        out, path = self.out, self.path
        title = item.get("title") if isinstance(item.get("title"), str) else ""
        quiz_line = self.line_of("quiz", title) if title else self.key_line("quiz")
        quiz = Quiz(id=item["id"] if isinstance(item.get("id"), str) else "", title=title or "")
        if isinstance(item.get("description"), str):
            quiz.description = item["description"].strip()
        quiz.gate = as_bool(item.get("gate")) is True
        if "gate" in item and item["gate"] is not None and as_bool(item["gate"]) is None:
            out.append(
                GATE_NOT_BOOLEAN.at(
                    path, self.line_of("quiz", "gate:", quiz_line), None, where=where, value=_quote(item["gate"])
                )
            )
        if "passing-score" in item:
            raw = item["passing-score"]
            score = as_float(raw)
            score_line = self.line_of("quiz", "passing-score:", quiz_line)
            if score is None or not 0 <= score <= 100:
                out.append(PASSING_SCORE_INVALID.at(path, score_line, None, where=where, value=_quote(raw)))
            else:
                quiz.passing_score = int(score) if score == int(score) else round(score)
        questions = item.get("questions")
        if isinstance(questions, dict):
            questions = [questions]
        if not isinstance(questions, list) or not questions:
            if questions is not None and not isinstance(questions, list):
                out.append(
                    QUIZ_INVALID.at(path, quiz_line, None, where=f"{where} questions", found=describe_type(questions))
                )
            else:
                out.append(QUIZ_NO_QUESTIONS.at(path, quiz_line, None, where=where))
            return quiz
        for q_number, entry in enumerate(questions, start=1):
            q_where = f"{where}, question {q_number}"
            self.question(entry, quiz, q_where, headings, quiz_line)
        return quiz

    def question(self, entry: Any, quiz: Quiz, where: str, headings: set[str], quiz_line: int | None) -> None:
        out, path = self.out, self.path
        if not isinstance(entry, dict):
            out.append(
                QUESTION_INVALID.at(
                    path, quiz_line, None, where=where, problem=f"is {describe_type(entry)}, not a mapping"
                )
            )
            return
        text = entry.get("question")
        q_line = self.line_of("quiz", text, quiz_line) if isinstance(text, str) and text else quiz_line
        if not isinstance(text, str) or not text.strip():
            out.append(QUESTION_INVALID.at(path, q_line, None, where=where, problem="has no `question:` text"))
            text = ""
        question = QuizQuestion(question=text.strip())
        explanation = entry.get("explanation")
        if isinstance(explanation, str):
            question.explanation = explanation.strip()
        options = entry.get("options")
        if options is None:
            out.append(OPTION_COUNT.at(path, q_line, None, where=where, count=0))
        elif not isinstance(options, list):
            out.append(
                QUESTION_INVALID.at(
                    path,
                    q_line,
                    None,
                    where=where,
                    problem=f"has options that are {describe_type(options)}, not a list",
                )
            )
        else:
            for o_number, option in enumerate(options, start=1):
                if isinstance(option, dict):
                    label = option.get("label")
                    if not isinstance(label, str) or not label.strip():
                        out.append(
                            OPTION_INVALID.at(
                                path, q_line, None, where=f"{where}, option {o_number}", problem="has no `label:` text"
                            )
                        )
                        label = ""
                    correct = as_bool(option.get("correct")) is True
                    question.options.append(QuizOption(text=label.strip(), correct=correct))
                elif isinstance(option, str):
                    out.append(
                        OPTION_INVALID.at(
                            path,
                            q_line,
                            None,
                            where=f"{where}, option {o_number}",
                            problem="is plain text; it needs `label:` (and `correct: true`)",
                        )
                    )
                    question.options.append(QuizOption(text=option.strip()))
                else:
                    out.append(
                        OPTION_INVALID.at(
                            path,
                            q_line,
                            None,
                            where=f"{where}, option {o_number}",
                            problem=f"is {describe_type(option)}, not a mapping",
                        )
                    )
            if not 2 <= len(options) <= 6:
                out.append(OPTION_COUNT.at(path, q_line, None, where=where, count=len(options)))
            if options and not any(o.correct for o in question.options):
                out.append(NO_CORRECT_OPTION.at(path, q_line, None, where=where))
        quiz.questions.append(question)
        for key in BRANCH_KEYS:
            if key in entry:
                self.branch(entry[key], key, question, where, headings, q_line)

    def branch(
        self, value: Any, key: str, question: QuizQuestion, where: str, headings: set[str], q_line: int | None
    ) -> None:
        out, path = self.out, self.path
        b_where = f"{where} ({key})"
        line = self.line_of("quiz", f"{key}:", q_line)
        if value is None:
            return
        if not isinstance(value, dict):
            out.append(
                BRANCH_INVALID.at(path, line, None, where=b_where, problem=f"is {describe_type(value)}, not a mapping")
            )
            return
        actions = [a for a in BRANCH_ACTIONS if value.get(a) is not None]
        message = value.get("message").strip() if isinstance(value.get("message"), str) else ""
        if message and not actions:
            question.branches.append(QuizBranch(condition=key, action="message", message=message))
        if not actions:
            if "message" not in value:
                out.append(
                    BRANCH_INVALID.at(
                        path, line, None, where=b_where, problem="has none of goto, load-reference, load-skill, message"
                    )
                )
            return
        for action in actions:
            target = value[action]
            a_line, _ = self.locate("quiz", f"{action}:", line)
            a_column = None
            if isinstance(target, str) and target.strip() and a_line is not None:
                found = self.text_lines[a_line - 1].find(target.strip())
                a_column = found + 1 if found >= 0 else None
            if not isinstance(target, str) or not target.strip():
                out.append(
                    BRANCH_INVALID.at(
                        path, a_line, None, where=b_where, problem=f"has {action} {_quote(target)}, not a name or path"
                    )
                )
                continue
            target = target.strip()
            question.branches.append(QuizBranch(condition=key, action=action, target=target, message=message))
            if action == "goto" and not goto_exists(target, headings):
                out.append(GOTO_MISSING.at(path, a_line, a_column, where=b_where, target=target))
            elif action == "load-reference":
                clean = target.removeprefix("./")
                if clean not in self.context.files:
                    out.append(REFERENCE_MISSING.at(path, a_line, a_column, where=b_where, target=target))


def _normal(key: str, value: Any) -> Any:
    if key == "tags":
        tags = as_str_list(value)
        return tags if tags is not None else value
    if isinstance(value, str):
        return value.strip()
    return value


def _is_http_url(text: str) -> bool:
    if any(ch.isspace() for ch in text):
        return False
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not parts.netloc.startswith(("@", ":"))


def body_headings(body: str) -> set[str]:
    """Headings of the body outside code fences, as `## Text` (ATX level kept) and as plain text."""
    found: set[str] = set()
    fence: str | None = None
    previous = ""
    for line in body.split("\n"):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
            previous = ""
            continue
        if fence is not None:
            continue
        atx = _ATX.match(line)
        if atx:
            text = atx.group(2).strip()
            found.add(f"{atx.group(1)} {text}")
            found.add(text.lower())
        elif _SETEXT.match(line) and previous.strip():
            level = "#" if line.strip().startswith("=") else "##"
            text = previous.strip()
            found.add(f"{level} {text}")
            found.add(text.lower())
        previous = line
    return found


def goto_exists(target: str, headings: set[str]) -> bool:
    """`## Setup Steps` needs that heading; `Setup Steps` or `#setup-steps` any heading with that text."""
    target = target.strip()
    if re.match(r"#{1,6}[ \t]", target):
        hashes, _, text = target.partition(" ")
        return f"{hashes} {text.strip()}" in headings
    if target.startswith("#"):
        slug = target[1:].lower()
        return any(_slug(h) == slug for h in headings if not h.startswith("#"))
    return target.lower() in headings


def _slug(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")
