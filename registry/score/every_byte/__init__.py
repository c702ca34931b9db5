"""Every byte of a skill: archives and documents opened, binaries named, padding, hidden characters,
look-alike hosts, hard-coded secrets and resource abuse.

One module per family, each rule's declaration beside the check that fires it:

- members.py: `expand` (a risk.EXPANDERS entry), the members of archives, compressed files and office
  documents read as more files of the skill; what could not be read (R150), encrypted members (R151),
  compression bombs (R152), and in documents macros (R153), embedded objects and remote templates
  (R154), hidden content (R155) and comments (R156);
- binaries.py: files that are not text, named by their magic number; compiled Python and native
  executables (R157), URLs inside binaries;
- padding.py: content behind long runs of blank lines or spaces (R158, R159), lines far past any
  reader's width (R160);
- characters.py: bidirectional controls in text without right-to-left script (R161), invisible
  characters inside URLs (R162) and file names (R163);
- lookalikes.py: look-alike hosts contacted (R164, `contacted_lookalikes`, a risk.CARD_RULES entry) or
  named (R165);
- secrets.py: hard-coded secrets (R166), private keys, wallet keys and seed phrases (R167);
- resources.py: crypto miners and fork bombs (R168), request floods (R169);
- probe.py, what the modules share: one pass over each file for every needle, the lines it lands on,
  the findings' form.

`analyse` (a risk.ANALYSERS entry) gives a coverage entry for every file and member: read as
text, opened (members), inspected as bytes (the format named: an image, a font, an executable),
or not analysed with the reason (unknown binary format, encrypted, a compression bomb, over a
limit, corrupt). It reports compiled Python and native executables, URLs inside binaries (as
hosts of the card), padding (long runs of blank lines or spaces with content after them) and
lines far past any reader's width, bidirectional controls in text without right-to-left script,
invisible characters inside URLs and file names, look-alike hosts, hard-coded secrets and
resource abuse (miners, fork bombs, request floods). `contacted_lookalikes` (a risk.CARD_RULES
entry) rates a look-alike host high when any analyser saw the skill contact it.

The checks report facts (what the bytes hold, where, and the values read); each module's `ROWS` gives each fact its
rule, and risk/assessment.py joins them into the one fact table. `contacted_lookalikes` alone makes findings: it is
a card rule, reading the card's facts.

Bounds: each module states its own (members.py those of archives and documents, binaries.py those of
binaries). Every regex has bounded repetitions or runs after a cheap substring test. Nothing from a
skill is executed, imported or unmarshalled.
"""

from __future__ import annotations

from collections.abc import Mapping

from registry.model import Skill
from registry.score.card import FROM_INSTRUCTIONS, HOST, NOT_ANALYSED, READ_TEXT, AnalyserResult, Coverage, Use
from registry.score.every_byte import binaries, characters, lookalikes, members, padding, resources, secrets
from registry.score.every_byte.binaries import _binary, binary_format
from registry.score.every_byte.characters import _file_name, _hidden_characters
from registry.score.every_byte.lookalikes import _hosts, contacted_lookalikes, judge, lookalike, own_names
from registry.score.every_byte.members import (
    MAX_MEMBER_BYTES,
    MAX_MEMBERS,
    Exploration,
    container_kind,
    expand,
    explore,
)
from registry.score.every_byte.padding import _long_line, _padding
from registry.score.every_byte.probe import (
    HOST_HITS,
    INVISIBLE_HITS,
    RESOURCE_HITS,
    SECRET_HITS,
    SEP,
    WALLET_HITS,
    _fact,
    probe,
)
from registry.score.every_byte.resources import _resources
from registry.score.every_byte.secrets import _secrets, is_placeholder
from registry.score.risk.facts import Row
from registry.score.risk.lines import TextFile, is_binary
from registry.score.risk.rules import RiskRule, show
from registry.score.vocabulary import host_of

__all__ = [
    "MAX_MEMBERS",
    "MAX_MEMBER_BYTES",
    "ROWS",
    "RULES",
    "Exploration",
    "analyse",
    "binary_format",
    "contacted_lookalikes",
    "container_kind",
    "expand",
    "explore",
    "host_of",
    "is_placeholder",
    "lookalike",
]

# Every every-byte rule, R150-R169 in order: each module's RULES holds the rules it declares.
RULES: tuple[RiskRule, ...] = (
    *members.RULES,
    *binaries.RULES,
    *padding.RULES,
    *characters.RULES,
    *lookalikes.RULES,
    *secrets.RULES,
    *resources.RULES,
)
# What the checks find and the rule each fact is given: the package's rows of the one fact table, each module's
# beside its rules.
ROWS: tuple[Row, ...] = (
    *members.ROWS,
    *binaries.ROWS,
    *padding.ROWS,
    *characters.ROWS,
    *lookalikes.ROWS,
    *secrets.ROWS,
    *resources.ROWS,
)


# -- the analyser --------------------------------------------------------------------------


def analyse(skill: Skill, files: list[TextFile], contents: Mapping[str, bytes], shown: str) -> AnalyserResult:
    """risk.ANALYSERS entry: coverage for every file and member, and the every-byte findings."""

    def shown_path(name: str) -> str:
        return name if shown in (".", "") else f"{shown}/{name}"

    result = AnalyserResult()
    own = own_names(skill)
    exploration = explore({name: data for name, data in contents.items() if SEP not in name})
    for note in exploration.notes:
        path = shown_path(note.name)
        if note.how:
            result.coverage.append(Coverage(path, note.how, note.detail))
        if note.shape:
            params = dict(note.params)
            if "path" in params:
                params["path"] = shown_path(params["path"])
            result.facts.append(_fact(note.shape, path, note.line, note.excerpt, **params))
    for name, url, detail in exploration.hosts:
        host = host_of(url)
        if host:
            verdict = judge(host, own)
            sensitive = "look-alike host" if verdict else ""
            result.uses.append(Use(HOST, host, shown_path(name), None, FROM_INSTRUCTIONS, sensitive, detail, show(url)))
    for name in sorted(contents):
        data = contents[name]
        path = shown_path(name)
        _file_name(name, path, result)
        if not isinstance(data, bytes | bytearray):
            result.coverage.append(Coverage(path, NOT_ANALYSED, "no bytes to read"))
            continue
        data = bytes(data)
        if name in exploration.described:
            continue
        if is_binary(data):
            _binary(name, path, data, result)
            continue
        result.coverage.append(Coverage(path, READ_TEXT, "text"))
        _padding(name, path, data, result)
        _long_line(name, path, data, result)
    for skill_file in skill.location.files:
        if skill_file.path not in contents:
            result.coverage.append(Coverage(shown_path(skill_file.path), NOT_ANALYSED, "not among the files read"))
    for file in files:
        data = contents.get(file.name)
        if not isinstance(data, bytes | bytearray):
            continue
        data = bytes(data)
        hits = probe(data)
        if not hits:
            continue
        if INVISIBLE_HITS in hits:
            _hidden_characters(file, result)
        if HOST_HITS in hits:
            _hosts(file, data, hits[HOST_HITS], own, result)
        if SECRET_HITS in hits or WALLET_HITS in hits:
            _secrets(file, data, hits, result)
        if RESOURCE_HITS in hits:
            _resources(file, data, hits[RESOURCE_HITS], result)
    return result
