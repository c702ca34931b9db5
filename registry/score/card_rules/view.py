"""What the card rules share: the skill's files read once, its requirements, the services and their hosts.

- SkillView: what the rules need from the files, computed on first use: where commands are, the
  instruction text and the hosts and names it mentions, the places where the instructions run or name
  a script (Reference), the prose paragraphs the file hand-offs read (Paragraph);
- requirements(): requires.env/bins/anyBins/config and primaryEnv, from the dialects and OpenClaw-style
  metadata;
- SERVICES: a service's token and its hosts (owns_host, service_of), read by flows.py and handoffs.py;
- the card's classes several rules read (secrets, unaccountable hosts, contacts), and the findings'
  form: `_item`, `_where`, at most PER_RULE findings per rule and skill (`_capped`).

Levels, and the false positives they avoid (measured on the development corpus):

- Code blocks shown as what not to do (the same warning words as the line rules) are not commands.
- Hosts on this machine or the local network are not contacts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from registry.model import Skill
from registry.score.card import ENV, FROM_CODE, FROM_INSTRUCTIONS, HOST, PATH, PROCESS, CapabilityCard, Use
from registry.score.risk.lines import CODE, INLINE, PROSE, Line, TextFile
from registry.score.risk.rules import Item, RiskRule, show
from registry.score.vocabulary import registrable

PER_RULE = 5  # findings per rule and skill from the card rules (a rule's first places; the rest are counted)

# -- vocabulary ----------------------------------------------------------------------------

SECRET_CLASSES = frozenset({"secret-like name", "wallet key"})
SECRET_PATH_CLASSES = frozenset({"home-directory secret", "browser profile", "wallet"})
UNACCOUNTABLE_CLASSES = frozenset(
    {"raw IP address", "paste or capture host", "tunnel", "shortener", "look-alike host", "dynamic-DNS host"}
)
CONTACT = frozenset({"send", "fetch", "open"})  # host details that reach the network (not "mention")
_LOCAL_HOST = re.compile(
    r"^(?:localhost|[\w.-]+\.(?:localhost|local|internal|lan|home\.arpa)|0\.0\.0\.0|\[?::1?\]?|"
    r"127(?:\.\d+){3}|10(?:\.\d+){3}|192\.168(?:\.\d+){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d+){2}|"
    r"169\.254(?:\.\d+){2})$",
    re.IGNORECASE,
)
_OPENCLAW_KEYS = ("openclaw", "clawdbot", "clawdis", "moltbot")
_BACKGROUND_WORDS = re.compile(
    r"\b(?:in\s+the\s+background|background\s+(?:process|job|task|worker)|as\s+a\s+daemon|detached|"
    r"run_in_background)\b|\bnohup\b|\bsetsid\b|\bdisown\b|\bstart\s+/b\b|&\s*$|&\s+(?!&)",
    re.IGNORECASE,
)


def program_name(word: str) -> str:
    name = word.strip().strip("'\"`").rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower()
    return name.removesuffix(".exe")


@dataclass
class Requirements:
    """requires.env/bins/anyBins/config and primaryEnv, from the dialects and OpenClaw-style metadata."""

    env: set[str] = field(default_factory=set)
    bins: set[str] = field(default_factory=set)
    config: set[str] = field(default_factory=set)

    @property
    def declared(self) -> bool:
        return bool(self.env or self.bins or self.config)

    def describe(self, kind: str) -> str:
        names = {"env": self.env, "bins": self.bins}.get(kind, set())
        if not names:
            return f"it declares no {kind}"
        shown = ", ".join(sorted(names)[:6]) + (", …" if len(names) > 6 else "")
        return f"declared: {shown}"


def requirements(skill: Skill) -> Requirements:
    out = Requirements()
    _add_requires(out, skill.requires)
    metadata = skill.metadata if isinstance(skill.metadata, Mapping) else {}
    blocks = [metadata] + [metadata[k] for k in _OPENCLAW_KEYS if isinstance(metadata.get(k), Mapping)]
    for block in blocks:
        if isinstance(block.get("requires"), Mapping):
            _add_requires(out, block["requires"])
        if block is not metadata:
            _add_names(out.env, block.get("env"))
            _add_names(out.env, block.get("primaryEnv"))
    _add_names(out.env, metadata.get("primaryEnv"))
    return out


def _add_requires(out: Requirements, requires: Mapping[str, Any]) -> None:
    for kind, names in requires.items():
        key = str(kind).lower()
        if key == "env":
            _add_names(out.env, names)
        elif key in ("bins", "anybins", "any_bins"):
            _add_names(out.bins, names)
        elif key == "config":
            _add_names(out.config, names)


def _add_names(into: set[str], value: Any) -> None:
    if isinstance(value, str) and value.strip():
        into.add(value.strip())
    elif isinstance(value, list | tuple):
        into.update(str(v).strip() for v in value[:200] if isinstance(v, str | int) and str(v).strip())


# -- reading the skill's files once --------------------------------------------------------


class SkillView:
    """What the card rules need from the files, computed on first use: where commands are, the
    instruction text, script references."""

    def __init__(self, skill: Skill, card: CapabilityCard, files: list[TextFile]) -> None:
        self.skill = skill
        self.card = card
        self.files = files
        self.by_path = {f.path: f for f in files}
        self.instruction_files = [f for f in files if f.kind in ("skill_md", "markdown")]
        self.scripts = {f.path: f for f in files if f.kind == "script"}
        self._code_lines: dict[str, dict[int, Line]] = {}  # file -> line number -> its code line
        self._warned: dict[tuple[str, int], bool] = {}  # a code line shown as what not to do
        self._instruction_text: str | None = None
        self._domains: set[str] | None = None
        self._prose_words: set[str] | None = None
        self._crypto: bool | None = None
        self._assigned: set[str] | None = None
        self._functions: set[str] | None = None
        self._words: set[str] | None = None
        self._references: list[Reference] | None = None
        self._paragraphs: dict[str, list[Paragraph]] = {}
        self._code_lowered: dict[str, list[tuple[int, str]]] = {}
        self._needs: Requirements | None = None

    @property
    def needs(self) -> Requirements:
        if self._needs is None:
            self._needs = requirements(self.skill)
        return self._needs

    def name(self, path: str) -> str:
        file = self.by_path.get(path)
        return file.name if file else path.rsplit("/", 1)[-1]

    def is_command(self, use: Use) -> bool:
        """Code runs it: a script, or a code block of the instructions (never prose or metadata), unless
        the block is shown as what not to do (`❌ never run this:`, the same warning words as risk/lines.py)."""
        if use.origin == FROM_CODE:
            return True
        if use.origin != FROM_INSTRUCTIONS or use.line is None:
            return False
        line = self.code_line(use.path, use.line)
        if line is None:
            return False
        key = (use.path, use.line)
        if key not in self._warned:
            self._warned[key] = line.warns(0, 0)
        return not self._warned[key]

    def code_line(self, path: str, number: int | None) -> Line | None:
        """The logical code line (continuations joined) of `path` that holds physical line `number`."""
        if number is None:
            return None
        lines = self._code_lines.get(path)
        if lines is None:
            file = self.by_path.get(path)
            lines = {}
            if file is not None:
                for line in file.lines:
                    if line.context == CODE:
                        for span in line.spans:
                            lines[span[1]] = line
            self._code_lines[path] = lines
        return lines.get(number)

    def is_manifest(self, use: Use) -> bool:
        """A dependency list (package.json, requirements.txt, pyproject.toml): data, not instructions or code."""
        file = self.by_path.get(use.path)
        return (file is not None and file.kind == "data") or _MANIFEST.search(self.name(use.path)) is not None

    def is_script(self, use: Use) -> bool:
        return use.origin == FROM_CODE and use.path in self.scripts

    @property
    def assigned(self) -> set[str]:
        """Variables the skill's own commands set (`NAME=`, `export NAME=`, `read NAME`): not the environment's."""
        if self._assigned is None:
            self._scan_code()
        return self._assigned or set()

    @property
    def functions(self) -> set[str]:
        """Shell functions the skill's code blocks and scripts define (`name() {`, `function name`)."""
        if self._functions is None:
            self._scan_code()
        return self._functions or set()

    def _scan_code(self) -> None:
        assigned: set[str] = set()
        functions: set[str] = set()
        budget = _MAX_CODE_SCAN
        for file in self.files:
            for line in file.lines:
                if line.context != CODE:
                    continue
                text = line.text[:2000]
                budget -= len(text)
                if budget < 0:
                    break
                if "=" in text or "read" in text:
                    assigned.update(m.group(1) or m.group(2) for m in _ASSIGNMENT.finditer(text))
                if "(" in text or "function" in text:
                    functions.update(m.group(1) or m.group(2) for m in _FUNCTION.finditer(text))
        self._assigned, self._functions = assigned, {f.lower() for f in functions}

    @property
    def instruction_text(self) -> str:
        """Lower-cased: the instruction files, the description and the skill's own links."""
        if self._instruction_text is None:
            parts = [self.skill.description or "", self.skill.homepage or "", self.skill.repository or ""]
            for file in self.instruction_files:
                parts += [line.text for line in file.lines if line.context != INLINE]
            self._instruction_text = "\n".join(parts).lower()
        return self._instruction_text

    def mentions_host(self, host: str) -> bool:
        """The instructions (or the skill's links) name this host or another host of its domain."""
        host = host.lower().strip(".")
        if not host:
            return True
        if self._domains is None:
            self._domains = _domains_in(self.instruction_text)
            self._domains |= {registrable(u.value) for u in self.card.of(HOST) if u.origin != FROM_CODE and u.value}
        return registrable(host) in self._domains

    def documented(self, name: str) -> bool:
        """The instructions' prose (not only their code blocks) names this variable or word."""
        if self._prose_words is None:
            words: set[str] = set()
            for file in self.instruction_files:
                for line in file.lines:
                    if line.context in (PROSE, INLINE):
                        words.update(_WORD.findall(line.text[:4000].lower()))
            self._prose_words = words
        return name.lower() in self._prose_words

    @property
    def crypto(self) -> bool:
        """The skill talks about wallets, chains or tokens (a PRIVATE_KEY there is a wallet's)."""
        if self._crypto is None:
            self._crypto = _CRYPTO.search(self.instruction_text[:2_000_000]) is not None
        return self._crypto

    def mentions_name(self, name: str) -> bool:
        """The instructions name this word (a variable, a package), tokenised once."""
        if self._words is None:
            self._words = set(_WORD.findall(self.instruction_text))
        return name.lower() in self._words

    @property
    def references(self) -> list[Reference]:
        """Places where the instructions run or name one of the skill's scripts."""
        if self._references is None:
            self._references = _find_references(self) if self.scripts else []
        return self._references


_WALLET_WORDS = re.compile(r"WALLET|MNEMONIC|SEED|KEYPAIR|RECOVERY")
_OTHER_KEYS = re.compile(
    r"(?:^|_)(?:JWT|SSH|RSA|ECDSA|ED25519|TLS|SSL|GPG|PGP|APP|SIGNING|SERVICE|GOOGLE|FIREBASE|GCP|APNS|VAPID|CERT|"
    r"DKIM|SAML|OAUTH|OIDC|GITHUB|DEPLOY|JWK|ENCRYPTION|AES|HMAC|SESSION|COOKIE|STRIPE|API)(?:_|$)"
)
_CRYPTO = re.compile(
    r"\b(?:wallets?|blockchains?|crypto(?:currency|currencies)?|ethereum|solana|bitcoin|web3|ethers|viem|"
    r"defi|dex|usdc|usdt|stablecoins?|on-?chain|evm|metamask|phantom|swaps?|lamports|wei|gwei|erc-?20|spl)\b"
)
_MANIFEST = re.compile(
    r"(?:^|/)(?:package\.json|requirements[\w.-]*\.txt|pyproject\.toml|Pipfile|Gemfile|Cargo\.toml|go\.mod)$"
)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9.-]*")  # no nested quantifier: linear on any text
_WORD = re.compile(r"[a-z0-9_][a-z0-9_-]*")


def _domains_in(text: str) -> set[str]:
    """The registrable domains of every host-like token of `text` (lower-cased)."""
    out: set[str] = set()
    for token in _TOKEN.findall(text):
        token = token.strip(".-")
        if "." not in token or len(token) > 253:
            continue
        labels = token.split(".")
        if all(labels) and (labels[-1].isalpha() or token.replace(".", "").isdigit()):
            out.add(registrable(token))
    return out


def is_wallet_key(view: SkillView, name: str, sensitive: str) -> bool:
    """A wallet's signing key: named so (WALLET, MNEMONIC, SEED, KEYPAIR), or a bare PRIVATE_KEY in a skill
    about wallets and chains; not a JWT, SSH, TLS or app signing key the classifier also calls private."""
    if sensitive != "wallet key":
        return False
    upper = name.upper()
    if _WALLET_WORDS.search(upper):
        return True
    if _OTHER_KEYS.search(upper):
        return False
    return view.crypto


def is_local(host: str) -> bool:
    """This machine or the local network (a dev server, a router page): not a remote host."""
    return bool(_LOCAL_HOST.match(host.strip().strip(".")))


# -- services and their hosts ---------------------------------------------------------------
#
# A secret-like variable named after a service is that service's credential. Sent to the service's own
# hosts it is the integration working (GITHUB_TOKEN to api.github.com); sent to any other host it is the
# credential leaving. Each entry: the words of a variable's name that name the service, the registrable
# domains (and their subdomains) the service answers on, and the labels that name a self-hosted install
# on the user's own domain (GitHub Enterprise Server, GitLab self-managed, Jira Data Center, Sentry):
# gitlab.corp.example counts as GitLab's for GITLAB_TOKEN. A name no entry knows falls back to its first
# word: OPENWEATHER_API_KEY belongs to a host whose registrable domain contains "openweather".
SERVICES: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("GitHub", ("GITHUB", "GH"), ("github.com", "githubusercontent.com", "ghe.com", "ghcr.io", "githubcopilot.com"),
     ("github",)),
    ("GitLab", ("GITLAB", "GL"), ("gitlab.com",), ("gitlab",)),
    ("Atlassian", ("JIRA", "ATLASSIAN", "CONFLUENCE", "BITBUCKET"),
     ("atlassian.net", "atlassian.com", "jira.com", "bitbucket.org"), ("jira", "confluence", "bitbucket")),
    ("Slack", ("SLACK",), ("slack.com", "slack-edge.com"), ()),
    ("OpenAI", ("OPENAI",), ("openai.com", "openai.azure.com"), ()),
    ("Anthropic", ("ANTHROPIC", "CLAUDE"), ("anthropic.com", "claude.ai"), ()),
    ("Stripe", ("STRIPE",), ("stripe.com",), ()),
    ("Notion", ("NOTION",), ("notion.com", "notion.so"), ()),
    ("Linear", ("LINEAR",), ("linear.app",), ()),
    ("AWS", ("AWS", "AMAZON"), ("amazonaws.com", "amazonaws.com.cn", "aws.amazon.com", "api.aws"), ()),
    ("Azure", ("AZURE",), ("azure.com", "azure.net", "windows.net", "microsoft.com", "microsoftonline.com",
                           "azure-api.net", "azurewebsites.net"), ()),
    ("Google", ("GOOGLE", "GCP", "GCLOUD", "GEMINI", "FIREBASE", "YOUTUBE"), ("googleapis.com", "google.com",
     "googleusercontent.com", "firebaseio.com", "youtube.com"), ()),
    ("Hugging Face", ("HUGGINGFACE", "HUGGING", "HF"), ("huggingface.co", "hf.co"), ()),
    ("Discord", ("DISCORD",), ("discord.com", "discordapp.com"), ()),
    ("Telegram", ("TELEGRAM", "TG"), ("telegram.org",), ()),
    ("Twilio", ("TWILIO",), ("twilio.com",), ()),
    ("SendGrid", ("SENDGRID",), ("sendgrid.com", "sendgrid.net"), ()),
    ("Mailgun", ("MAILGUN",), ("mailgun.net", "mailgun.org"), ()),
    ("Cloudflare", ("CLOUDFLARE", "CF"), ("cloudflare.com",), ()),
    ("Vercel", ("VERCEL",), ("vercel.com",), ()),
    ("Netlify", ("NETLIFY",), ("netlify.com",), ()),
    ("Datadog", ("DATADOG", "DD"), ("datadoghq.com", "datadoghq.eu", "ddog-gov.com"), ()),
    ("Sentry", ("SENTRY",), ("sentry.io",), ("sentry",)),
    ("HubSpot", ("HUBSPOT",), ("hubapi.com", "hubspot.com"), ()),
    ("Dropbox", ("DROPBOX",), ("dropboxapi.com", "dropbox.com"), ()),
    ("Shopify", ("SHOPIFY",), ("myshopify.com", "shopify.com"), ()),
    ("npm", ("NPM",), ("npmjs.org", "npmjs.com"), ()),
    ("PyPI", ("PYPI", "TWINE"), ("pypi.org",), ()),
    ("Docker", ("DOCKER", "DOCKERHUB"), ("docker.com", "docker.io"), ()),
    ("Perplexity", ("PERPLEXITY", "PPLX"), ("perplexity.ai",), ()),
    ("xAI", ("XAI", "GROK"), ("x.ai",), ()),
)  # fmt: skip
_SERVICE_BY_WORD = {word: (name, domains, labels) for name, words, domains, labels in SERVICES for word in words}
# Words a variable's name starts with that name no service: framework prefixes, generic credential words.
_GENERIC_WORDS = frozenset(
    "NEXT PUBLIC VITE REACT APP EXPO NUXT INPUT MY THE API KEY KEYS TOKEN TOKENS SECRET SECRETS ACCESS AUTH "
    "PRIVATE CLIENT USER BOT PERSONAL DEFAULT PROD DEV TEST STAGING LOCAL".split()
)  # fmt: skip


def service_of(name: str) -> str:
    """The service a variable's name names (SERVICES), or ''."""
    for word in name.upper().split("_"):
        entry = _SERVICE_BY_WORD.get(word)
        if entry is not None:
            return entry[0]
    return ""


def owns_host(name: str, host: str) -> bool:
    """The variable `name` is the credential of the service that runs `host` (SERVICES, or the
    fallback: the name's first word appears in the host's registrable domain)."""
    host = host.lower().strip(".")
    words = [w for w in name.upper().split("_") if w]
    if not host or not words:
        return False
    labels = host.split(".")
    known = False
    for word in words:
        entry = _SERVICE_BY_WORD.get(word)
        if entry is None:
            continue
        known = True
        _, domains, own_labels = entry
        if any(host == d or host.endswith("." + d) for d in domains) or any(label in own_labels for label in labels):
            return True
    if known:
        return False
    first = next((w for w in words if w not in _GENERIC_WORDS), "")
    return len(first) >= 4 and first.lower().replace("-", "") in registrable(host).replace("-", "")


@dataclass(frozen=True)
class Reference:
    script: str  # shown path of the script
    path: str  # the instruction file
    line: int
    background: bool
    text: str


_MAX_CODE_SCAN = 4 * 1024 * 1024  # characters of code lines read for assignments and function definitions
_ASSIGNMENT = re.compile(
    r"(?:^|[;&|(`]|\b(?:export|local|declare|readonly|typeset)(?:\s+-\w+)*)\s*([A-Za-z_]\w{0,100})=(?!=)"
    r"|\bread\b(?:\s+-\w+)*(?:\s+-[pt]\s+\S+)?\s+([A-Za-z_]\w{0,100})"
)
_FUNCTION = re.compile(r"^\s*([A-Za-z_][\w-]{0,100})\s*\(\s*\)|\bfunction\s+([A-Za-z_][\w-]{0,100})")
_MAX_REFERENCE_LINES = 20_000  # instruction lines searched for script names
_MAX_SCRIPTS = 200  # script names searched for


def _find_references(view: SkillView) -> list[Reference]:
    by_name: dict[str, list[str]] = {}
    for path, file in list(view.scripts.items())[:_MAX_SCRIPTS]:
        by_name.setdefault(file.name.lower(), []).append(path)
        by_name.setdefault(file.name.rsplit("/", 1)[-1].lower(), []).append(path)
    names = sorted(by_name, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE)
    background_at = {(u.path, u.line) for u in view.card.uses if u.kind == PROCESS and u.detail == "background"}
    out: list[Reference] = []
    seen: set[tuple[str, str, int]] = set()
    read = 0
    for file in view.instruction_files:
        for line in file.lines:
            if line.context not in (CODE, INLINE, PROSE):
                continue
            read += 1
            if read > _MAX_REFERENCE_LINES:
                return out
            for match in pattern.finditer(line.text[:20_000]):
                number = line.locate(match.start())[0]
                background = bool(
                    _BACKGROUND_WORDS.search(line.text[:2000])
                    or (line.context == CODE and _BACKGROUND_WORDS.search(line.near[-400:]) and "&" not in line.near)
                    or (file.path, number) in background_at
                )
                for script in dict.fromkeys(by_name[match.group(0).lower()]):
                    if (script, file.path, number) not in seen:
                        seen.add((script, file.path, number))
                        out.append(Reference(script, file.path, number, background, line.text))
    return out


@dataclass(frozen=True)
class Paragraph:
    """Consecutive prose lines of one instruction file, joined with spaces, with where each line starts."""

    path: str
    text: str
    lower: str
    starts: tuple[int, ...]
    numbers: tuple[int, ...]

    def line_at(self, offset: int) -> int:
        return self.numbers[max(0, bisect.bisect_right(self.starts, offset) - 1)]


def _secret_reads(uses: Iterable[Use]) -> list[Use]:
    return [
        use
        for use in uses
        if (use.kind == ENV and use.sensitive in SECRET_CLASSES)
        or (use.kind == PATH and use.sensitive in SECRET_PATH_CLASSES and use.detail in ("read", "list", ""))
    ]


def _item(rule: RiskRule, path: str, line: int | None, excerpt: str, /, **params: Any) -> Item:
    finding = rule.at(path, line, None, excerpt=show(excerpt), **params)
    return Item(finding, rule, params)


def _where(view: SkillView, use: Use) -> str:
    name = view.name(use.path)
    if use.origin == FROM_CODE:
        return f"{name} (line {use.line})" if use.line else name
    return f"a command in {name} (line {use.line})" if use.line else f"a command in {name}"


def _first_per_value(uses: Iterable[Use]) -> dict[str, list[Use]]:
    grouped: dict[str, list[Use]] = {}
    for use in sorted(uses, key=lambda u: (u.path, u.line or 0)):
        grouped.setdefault(use.value, []).append(use)
    return grouped


def _more(uses: list[Use]) -> str:
    return f" (and {len(uses) - 1} more places)" if len(uses) > 1 else ""


def _capped(items: list[Item]) -> list[Item]:
    return items[:PER_RULE]
