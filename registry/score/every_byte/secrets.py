"""Hard-coded secrets and keys (R166, R167): credentials anyone who installs the skill can read.

Service tokens (AWS, GitHub, Slack, Stripe, Anthropic, OpenAI, Google, Telegram; Slack and Discord
webhooks), signed JSON Web Tokens and encrypted PEM keys are R166; private keys, wallet keys (64 hex
digits, base58, 64-byte arrays, on lines with wallet words) and BIP-39 seed phrases (checksum
verified, in files that talk about them) are R167. Documentation placeholders are not secrets
(is_placeholder); a finding shows a value's first 8 characters only.
"""

from __future__ import annotations

import base64
import binascii
import functools
import itertools
import json
import math
import re
from collections import Counter

from registry.score.card import AnalyserResult
from registry.score.every_byte.probe import PER_FILE, SECRET_HITS, WALLET_HITS, _fact, _line_numbers, _lines_on
from registry.score.risk.facts import Row
from registry.score.risk.lines import Line, TextFile
from registry.score.risk.rules import EVERYWHERE, RiskRule, _rule

MAX_SEED_WORDS = 96  # words of one run checked for a seed phrase

HARDCODED_SECRET = _rule(
    "R166", "medium", "secrets",
    "hard-coded secret",
    "{what}: {masked}",
    "a token in a published skill is readable by everyone who installs it and can be used to act as its "
    "owner; a skill that carries someone's credentials may also be using them for them",
    "Revoke the token now, remove it from the skill (and its history), and read it from the environment "
    "or a secret store at run time.",
    "contains {what}",
    EVERYWHERE,
    'GITHUB_TOKEN = "ghp_<36 characters>"',
)  # fmt: skip
HARDCODED_PRIVATE_KEY = _rule(
    "R167", "high", "secrets",
    "hard-coded private key or wallet secret",
    "{what}: {masked}",
    "a private key or seed phrase gives full control of what it protects (a server login, a signing "
    "identity, a wallet's funds) to anyone who reads the skill, and to the skill itself",
    "Revoke or empty what the key protects, remove it from the skill and its history, and load keys from "
    "a secret store the user controls.",
    "contains {what}",
    EVERYWHERE,
    "-----BEGIN OPENSSH PRIVATE KEY----- followed by the key",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    HARDCODED_SECRET,
    HARDCODED_PRIVATE_KEY,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
SECRET = "a hard-coded secret"
PRIVATE_KEY = "a hard-coded private key or wallet secret"
ROWS = (Row(SECRET, HARDCODED_SECRET), Row(PRIVATE_KEY, HARDCODED_PRIVATE_KEY))


# -- hard-coded secrets --------------------------------------------------------------------

# (what, pattern with the value as group 1, the length of the value's fixed prefix)
_TOKENS: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("an AWS access key id", re.compile(r"\b((?:AKIA|ASIA)[0-9A-Z]{16})\b"), 4),
    ("an AWS secret access key",
     re.compile(r"(?i)aws_secret_access_key\W{1,5}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"), 0),
    ("a GitHub token", re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{36})\b"), 4),
    ("a GitHub fine-grained token", re.compile(r"\b(github_pat_[A-Za-z0-9_]{82})\b"), 11),
    ("a Slack token", re.compile(r"\b(xox[abposr]-[0-9A-Za-z-]{20,200})"), 5),
    ("a Slack webhook URL",
     re.compile(r"https://hooks\.slack\.com/services/(T[0-9A-Z]{8,12}/B[0-9A-Z]{8,12}/[0-9A-Za-z]{24})"), 0),
    ("a Discord webhook URL",
     re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/(\d{17,20}/[\w-]{60,80})"), 0),
    ("a Stripe live key", re.compile(r"\b([rs]k_live_[0-9A-Za-z]{24,99})\b"), 8),
    ("an Anthropic API key", re.compile(r"\b(sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,120})"), 14),
    ("an OpenAI-style API key", re.compile(r"\b(sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,200})"), 3),
    ("a Google API key", re.compile(r"\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])"), 4),
    ("a Telegram bot token", re.compile(r"\b(\d{8,10}:AA[0-9A-Za-z_-]{33})(?![0-9A-Za-z_-])"), 0),
)  # fmt: skip
_JWT = re.compile(r"\b(eyJ[A-Za-z0-9_-]{10,2000})\.(eyJ[A-Za-z0-9_-]{10,4000})\.([A-Za-z0-9_-]{16,1000})")
_PEM = re.compile(r"-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}")
_WALLET_WORDS = re.compile(  # in identifiers too: SOLANA_PRIVATE_KEY, privateKey
    r"(?i)(?<![a-z])(?:private[\s_-]?key|priv_?key|secret[\s_-]?key|wallet|signer|mnemonic|seed|keypair|solana|"
    r"ethereum|eth_?key|account_?key|pk)(?![a-z])"
)
_HASH_WORDS = re.compile(r"(?i)sha-?\d|hash|digest|checksum|commit|txid|tx_?hash|block|nonce|salt|uuid|\bid\b")
_HEX_KEY = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{64})(?![0-9A-Za-z])")
_BASE58_KEY = re.compile(r"(?<![0-9A-Za-z])([1-9A-HJ-NP-Za-km-z]{87,88})(?![0-9A-Za-z])")
_BYTE_ARRAY = re.compile(r"\[\s*((?:\d{1,3}\s*,\s*){63}\d{1,3})\s*\]")
_WORD_RUN = re.compile(r"(?:\b[a-z]{3,8}\b[\s,\"'\d.)-]{1,6}){11,}\b[a-z]{3,8}\b")
_PLACEHOLDER = re.compile(
    r"(?i)example|xxxx|your|dummy|sample|fake|placeholder|redacted|replace|insert|changeme|change_me|here|test|demo|"
    r"1234567|abcdef|0000000|\.\.\.|…|<|>|\*\*\*|\$\{|\{\{"
)


def _entropy(text: str) -> float:
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values()) if total else 0.0


def is_placeholder(value: str, body_from: int = 0) -> bool:
    """A documentation placeholder rather than a real secret: `sk-...`, `<your-key>`, EXAMPLE, xxxx, or a body
    that is base64 of such words (a test fixture's "NoTRealAPIKeyDoNotUse…" in a key's shape)."""
    body = value[body_from:]
    if _PLACEHOLDER.search(value) or re.search(r"(.)\1{5,}", body):
        return True
    return len(set(body)) < 10 or _entropy(body) < 3.0 or _encoded_placeholder(body)


_SAYS_FAKE = re.compile(r"(?i)not\W?real|do\W?not\W?use|fake|dummy|placeholder|example|test|sample")


def _encoded_placeholder(body: str) -> bool:
    """A random key decodes to random bytes; one whose base64 decodes to readable words saying it is not real
    is a placeholder."""
    body = re.sub(r"^[a-z]{2,10}[-_]", "", body)  # `proj-`, `live_`: the kind of key, before its body
    if len(body) < 16 or len(body) > 512 or not re.fullmatch(r"[A-Za-z0-9+/_-]+={0,2}", body):
        return False
    padded = body.rstrip("=") + "=" * (-len(body.rstrip("=")) % 4)
    try:
        decoded = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (ValueError, binascii.Error):
        return False
    text = decoded.decode("ascii", errors="replace")
    readable = sum(1 for c in text if c.isalnum() or c in " _-.") >= 0.9 * len(text)
    return readable and (_SAYS_FAKE.search(text) is not None or _PLACEHOLDER.search(text) is not None)


def _mask(value: str) -> str:
    return f"{value[:8]}… ({len(value)} characters, the rest withheld)"


@functools.lru_cache(maxsize=1)
def _bip39() -> tuple[frozenset[str], object]:
    from mnemonic import Mnemonic

    checker = Mnemonic("english")
    return frozenset(checker.wordlist), checker


def _secrets(file: TextFile, data: bytes, hits: dict[str, list[int]], result: AnalyserResult) -> None:
    """Tokens on the lines the probe found, wallet keys on lines with wallet words, seed phrases in
    files that talk about them."""
    tokens = _line_numbers(data, hits.get(SECRET_HITS, []))
    wallet = _line_numbers(data, hits.get(WALLET_HITS, []))
    seeds = WALLET_HITS in hits and _SEED_WORDS.search(data.lower()) is not None
    lines = file.lines
    chosen = list(enumerate(lines)) if seeds else _lines_on(file, tokens | wallet)
    count = 0
    for index, line in chosen:
        text = line.text
        found: list[tuple[str, str, str, int]] = []
        numbers = {span[1] for span in line.spans}
        if numbers & tokens:
            found += _token_secrets(text, lines, index)
        if numbers & wallet:
            found += _wallet_secrets(text)
        if seeds:
            found += _seed_secrets(text)
        for rule, what, value, start in found:
            number, column = line.locate(start)
            result.facts.append(_fact(rule, line.path, number, _mask(value), column, what=what, masked=_mask(value)))
            count += 1
        if count >= PER_FILE:
            return


# Searched in the lower-cased bytes: the same matches as with (?i) (bytes fold ASCII only), and a
# case-sensitive alternation is faster over a whole file. Only whether one matches is read, so it is
# written with every branch led by a letter (`\b12` as `1(?<!\w1)2`): re then skips to the bytes a
# branch can start with instead of trying each branch at every byte.
_SEED_WORDS = re.compile(
    rb"mnemonic|seed[ _-]?(?:phrase|words)|recovery[ _-]?phrase|secret[ _-]?phrase|bip-?39"
    rb"|1(?<!\w1)2[ -]words?\b|2(?<!\w2)4[ -]words?\b|s(?<!\ws)eed\s*[=:]"
)


def _token_secrets(text: str, lines: tuple[Line, ...], index: int) -> list[tuple[str, str, str, int]]:
    found: list[tuple[str, str, str, int]] = []
    for what, pattern, prefix in _TOKENS:
        for match in pattern.finditer(text):
            value = match.group(1)
            if not is_placeholder(value, prefix):
                found.append((SECRET, what, value, match.start(1)))
    if "eyJ" in text:
        for match in _JWT.finditer(text):
            if _real_jwt(match.group(1), match.group(2)):
                found.append((SECRET, "a signed JSON Web Token", match.group(0), match.start()))
    if "PRIVATE KEY" in text:
        for match in _PEM.finditer(text):
            body = _pem_body(text[match.end() :], lines, index)
            if len(body) >= 200 and not is_placeholder(body[:400]):
                kind = match.group(1)
                encrypted = kind.startswith("ENCRYPTED") or "Proc-Type: 4,ENCRYPTED" in text
                rule = SECRET if encrypted else PRIVATE_KEY
                what = f"an {'encrypted ' if encrypted else ''}{kind.lower()} (PEM)"
                found.append((rule, what, match.group(0), match.start()))
    return found


def _wallet_secrets(text: str) -> list[tuple[str, str, str, int]]:
    found: list[tuple[str, str, str, int]] = []
    if not _WALLET_WORDS.search(text) or _HASH_WORDS.search(text):
        return found
    for match in _HEX_KEY.finditer(text):
        value = match.group(1)
        if not is_placeholder(value) and _entropy(value) >= 3.2:
            found.append((PRIVATE_KEY, "a wallet private key (64 hex digits)", value, match.start(1)))
    for match in _BASE58_KEY.finditer(text):
        value = match.group(1)
        if not is_placeholder(value) and _entropy(value) >= 4.5:
            found.append((PRIVATE_KEY, "a wallet secret key (base58)", value, match.start(1)))
    for match in _BYTE_ARRAY.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if all(n <= 255 for n in numbers) and len(set(numbers)) >= 24:
            found.append((PRIVATE_KEY, "a 64-byte wallet keypair array", match.group(0), match.start()))
    return found


def _seed_secrets(text: str) -> list[tuple[str, str, str, int]]:
    found: list[tuple[str, str, str, int]] = []
    for match in itertools.islice(_WORD_RUN.finditer(text), 20):
        phrase = _seed_phrase(match.group(0))
        if phrase:
            what = f"a {len(phrase.split())}-word BIP-39 seed phrase"
            found.append((PRIVATE_KEY, what, phrase, match.start()))
    return found


def _pem_body(rest: str, lines: tuple[Line, ...], index: int) -> str:
    """The base64 body after a BEGIN line: on the same line (JSON strings with \\n) or the next lines."""
    chunk = rest.replace("\\n", "\n")
    if len(_PEM_BODY.findall(chunk[:4000])) <= 1:
        following = [line.text for line in lines[index + 1 : index + 60]]
        chunk = "\n".join(following)
    end = chunk.find("-----END")
    chunk = chunk[: end if end >= 0 else 8000]
    return "".join(_PEM_BODY.findall(chunk))


def _b64json(part: str) -> object:
    try:
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None


_JWT_PLACEHOLDERS = ("john doe", "jane doe", "1234567890", "example", "test", "demo", "sample", "your", "placeholder")


def _real_jwt(header: str, payload: str) -> bool:
    head, body = _b64json(header), _b64json(payload)
    if not isinstance(head, dict) or not isinstance(body, dict):
        return False
    if str(head.get("alg", "none")).lower() == "none":
        return False
    text = json.dumps(body).lower()
    return not any(word in text for word in _JWT_PLACEHOLDERS)


def _seed_phrase(run: str) -> str:
    """The longest valid BIP-39 phrase (12 to 24 words, checksum verified) in a run of words, or ""."""
    words = re.findall(r"[a-z]+", run)[:MAX_SEED_WORDS]
    wordlist, checker = _bip39()
    best = ""
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and words[end] in wordlist:
            end += 1
        for size in (24, 21, 18, 15, 12):
            for offset in range(start, end - size + 1):
                candidate = words[offset : offset + size]
                if len(set(candidate)) < size * 3 // 4:
                    continue
                phrase = " ".join(candidate)
                try:
                    valid = checker.check(phrase)  # type: ignore[attr-defined]
                except (ValueError, LookupError):
                    valid = False
                if valid and len(phrase) > len(best):
                    best = phrase
            if best:
                return best
        start = end + 1
    return best
