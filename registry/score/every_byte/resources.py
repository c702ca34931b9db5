"""Resource abuse (R168, R169): crypto miners, fork bombs and request floods.

A miner or a mining pool, a fork bomb or a program that starts copies of itself in a loop (R168);
flooding tools, and requests sent in an endless loop with no pause (R169). Read in code,
configuration, data and inline commands; outside scripts, a line that warns is not a finding.
"""

from __future__ import annotations

import re

from registry.score.card import AnalyserResult
from registry.score.every_byte.probe import PER_FILE, _fact, _line_numbers, _lines_on
from registry.score.risk.facts import Row
from registry.score.risk.lines import CODE, CONFIG, DATA, INLINE, Line, TextFile
from registry.score.risk.rules import COMMANDS_AND_INLINE, RiskRule, _rule, show

RESOURCE_HIJACK = _rule(
    "R168", "high", "resources",
    "crypto miner or fork bomb",
    "{what}",
    "a miner spends the user's hardware and electricity for someone else; a fork bomb takes the machine "
    "down until it is rebooted",
    "Remove it.",
    "{what}",
    COMMANDS_AND_INLINE,
    "xmrig -o stratum+tcp://pool.example:3333 -u WALLET --donate-level 1",
)  # fmt: skip
REQUEST_FLOOD = _rule(
    "R169", "medium", "resources",
    "request flood",
    "{what}",
    "sending requests in a loop without a pause floods a service: it can get the user's address banned "
    "or be used as a denial-of-service attack",
    "Reviewers: check the target and why it is hammered. Authors: add a delay, a retry limit, or use the "
    "service's batch API.",
    "{what}",
    COMMANDS_AND_INLINE,
    "while true; do curl -s https://target.example/; done",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    RESOURCE_HIJACK,
    REQUEST_FLOOD,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
MINER = "a crypto miner or fork bomb"
FLOOD = "a request flood"
ROWS = (Row(MINER, RESOURCE_HIJACK), Row(FLOOD, REQUEST_FLOOD))


# -- resource abuse ------------------------------------------------------------------------

_MINER = re.compile(
    r"(?i)\b(xmrig|xmr-stak|minerd|cpuminer(?:-multi|-opt)?|ccminer|ethminer|nbminer|lolminer|t-rex|phoenixminer|"
    r"nanominer|srbminer(?:-multi)?|gminer|teamredminer|bminer|cgminer|bfgminer|xmrig-proxy)\b"
)
_POOL = re.compile(
    r"(?i)\bstratum(?:\+(?:tcp|ssl|tls))?://[^\s'\"]{3,200}|--donate-level\b|(?:[\w-]+\.){0,3}(?:minexmr\.com|"
    r"supportxmr\.com|moneroocean\.stream|nanopool\.org|2miners\.com|f2pool\.com|c3pool\.com|hashvault\.pro|"
    r"herominers\.com|unmineable\.com|nicehash\.com|ethermine\.org|viabtc\.com|antpool\.com)\b"
)
_FORK_BOMBS = (
    re.compile(r"(?P<f>[\w:.]{1,20})\s*\(\s*\)\s*\{\s*(?P=f)\s*\|\s*(?P=f)\s*&\s*\}\s*;?\s*(?P=f)"),
    re.compile(r"%0\s*\|\s*%0"),
    re.compile(r"\bfork\s+while\s+fork\b"),
    re.compile(r"while\s*(?:\(\s*(?:1|true)\s*\)|True\s*:)\s*(?:os\.)?fork\s*\(\s*\)"),
    re.compile(r"for\s*\(\s*;\s*;\s*\)\s*fork\s*\(\s*\)"),
)
_LOOP = re.compile(
    r"\bwhile\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*(?:do\b|$)|\bwhile\s*(?:\(\s*(?:1|true)\s*\)|True\s*:)"
    r"|\bfor\s*\(\s*;\s*;\s*\)|\buntil\s+false\b"
)
# A program starting copies of itself: node's fork(__filename), Python re-running __file__ or sys.argv[0],
# a shell script running "$0" in the background.
_SELF_SPAWN = re.compile(
    r"\b(?:fork|spawn|execFile|exec)\s*\(\s*(?:process\.execPath\s*,\s*\[\s*)?(?:__filename|process\.argv\[1\])"
    r"|\b(?:Popen|run|call|spawn\w*|exec\w*)\s*\(\s*\[?\s*sys\.executable\s*,\s*(?:__file__|sys\.argv\[0\])"
    r"|(?:^|[;&|]\s*)(?:bash\s+|sh\s+)?\"?\$0\"?(?:\s+\"?\$@\"?)?\s*&(?!&)"
)
_LOOP_HEAD = re.compile(r"\b(?:for|while|until)\b|\.forEach\s*\(|\brange\s*\(")


def _in_loop(text: str, lines: tuple[Line, ...], index: int) -> bool:
    """The line or one of the three before it in the same block opens a loop."""
    block = lines[index].block
    window = [text] + [lines[i].text for i in range(max(0, index - 3), index) if lines[i].block == block]
    return any(_LOOP_HEAD.search(part) for part in window)


_FORK_CALL = re.compile(r"^\s*(?:os\.)?fork\s*\(\s*\)\s*;?\s*$")
_REQUEST = re.compile(
    r"\b(?:curl|wget|Invoke-WebRequest|iwr|Invoke-RestMethod|irm)\b|requests\.(?:get|post|put|head)\s*\(|\bfetch\s*\("
    r"|urlopen\s*\(|httpx\.\w+\s*\(|\.(?:get|post)\s*\(\s*['\"]https?://"
)
_PAUSE = re.compile(
    r"(?i)\bsleep\b|setTimeout|setInterval|\bwait\b|Start-Sleep|\bbreak\b|\bexit\b|\breturn\b|\bretr(?:y|ies)\b|"
    r"backoff|rate.?limit|attempt|\bread\b|\bselect\b|\bif\b"
)
_FLOOD_TOOLS = re.compile(r"(?i)\bhping3?\b[^\n]{0,80}--flood\b|\bslowloris\b|\bslowhttptest\b|\bab\s+-n\s*\d{6,}")
_RESOURCE_CONTEXTS = frozenset({CODE, CONFIG, DATA, INLINE})


def _resources(file: TextFile, data: bytes, offsets: list[int], result: AnalyserResult) -> None:
    lines = file.lines
    count = 0
    for index, line in _lines_on(file, _line_numbers(data, offsets)):
        if line.context not in _RESOURCE_CONTEXTS:
            continue
        text = line.text
        found = _resource_hit(text, lines, index)
        if found is None:
            continue
        rule, what, start, end = found
        if file.kind != "script" and line.warns(start, end):  # a script runs whatever its comments say
            continue
        number, column = line.locate(start)
        result.facts.append(_fact(rule, line.path, number, show(text[start:end] or text), column, what=what))
        count += 1
        if count >= PER_FILE:
            return


def _resource_hit(text: str, lines: tuple[Line, ...], index: int) -> tuple[str, str, int, int] | None:
    pool = _POOL.search(text)
    miner = _MINER.search(text)
    if pool is not None:
        return MINER, f"runs a crypto miner ({show(pool.group(0))})", pool.start(), pool.end()
    if miner is not None:
        return MINER, f"runs the crypto miner {miner.group(1)}", miner.start(), miner.end()
    for pattern in _FORK_BOMBS:
        bomb = pattern.search(text)
        if bomb is not None:
            return MINER, f"a fork bomb ({show(bomb.group(0))})", bomb.start(), bomb.end()
    clone = _SELF_SPAWN.search(text)
    if clone is not None and _in_loop(text, lines, index):
        return (
            MINER,
            f"a fork bomb (starts copies of itself in a loop: {show(clone.group(0))})",
            clone.start(),
            clone.end(),
        )
    flood = _FLOOD_TOOLS.search(text)
    if flood is not None:
        return FLOOD, f"floods a host ({show(flood.group(0))})", flood.start(), flood.end()
    loop = _LOOP.search(text)
    if loop is None:
        return None
    line = lines[index]
    following = [other for other in lines[index + 1 : index + 61] if other.block == line.block]
    if following and _FORK_CALL.match(following[0].text):
        return MINER, "a fork bomb (fork() in an endless loop)", loop.start(), len(text)
    body = [text]
    if not re.search(r"\bdone\b", text):  # the loop's body on the following lines, up to its end
        indent = len(text) - len(text.lstrip())
        header = text.rstrip()
        for other in following:
            stripped = other.text.strip()
            depth = len(other.text) - len(other.text.lstrip())
            if header.endswith(":") and depth <= indent:
                break
            body.append(other.text)
            if re.match(r"done\b", stripped) or (header.endswith("{") and stripped.startswith("}") and depth <= indent):
                break
    joined = "\n".join(body)
    if _REQUEST.search(joined) and not _PAUSE.search(joined):
        return FLOOD, "sends requests in an endless loop with no pause", loop.start(), len(text)
    return None
