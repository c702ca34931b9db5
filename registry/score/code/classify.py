"""Classification tables for the capability card: which names, paths and hosts deserve a look.

Pure functions over strings, shared by the code parsers (this package) and any other analyser or
card rule that wants the same vocabulary. Each returns one of `card.SENSITIVE_CLASSES` (or a
plainly worded class where none fits, such as "dynamic-DNS host"), or "" when the value is
ordinary. Nothing here reads a file or the network.
"""

from __future__ import annotations

import functools
import re

from registry.score import vocabulary as vocab
from registry.score.vocabulary import RAW_IP, host_kind, names_pattern, url_host

SECRET_LIKE = "secret-like name"
WALLET_KEY = "wallet key"
HOME_SECRET = vocab.HOME_STORE[0]  # "home-directory secret"
BROWSER_PROFILE = vocab.BROWSER_STORE[0]  # "browser profile"
WALLET = vocab.WALLET_STORE[0]  # "wallet"
AGENT_CONFIG = "agent configuration"
SKILL_FOLDER = "skill folder"
SHELL_STARTUP = "shell startup"
SCHEDULED_JOB = "scheduled job"
GIT_HOOK = "git hook"
SSH_LOGIN = "ssh login"
SYSTEM = vocab.SYSTEM_STORE[0]  # "system"
RAW_IP_ADDRESS = "raw IP address"
PASTE_OR_CAPTURE = "paste or capture host"
TUNNEL = "tunnel"
SHORTENER = "shortener"
DYNAMIC_DNS = "dynamic-DNS host"

# -- environment variables -----------------------------------------------------------------

# A name is secret-like when one of its `_`-separated words is (or ends with) one of these.
SECRET_WORDS = (
    "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PRIVATE", "CREDENTIAL", "CREDENTIALS", "MNEMONIC", "SEED",
    "AUTH", "COOKIE", "SESSION", "APIKEY", "PASS", "PWD",
)  # fmt: skip
# Words that hold or derive a wallet's signing key: whoever reads them can move funds. A bare
# WALLET (or WALLET_ADDRESS) holds a public address in real skills; with a secret word it is a key.
_WALLET_NAME = re.compile(
    r"PRIVATE_?KEY|MNEMONIC|SEED_?PHRASE|SECRET_?RECOVERY|KEYPAIR|WALLET_?(?:KEY|SECRET|SEED|PRIVATE|PASSWORD|PASS)",
    re.IGNORECASE,
)
# Ordinary variables that happen to contain a secret word.
_NOT_SECRET = frozenset(
    {
        "PWD",
        "OLDPWD",
        "KEYBOARD",
        "KEYMAP",
        "SSH_AUTH_SOCK",
        "SESSION_MANAGER",
        "XDG_SESSION_TYPE",
        "XDG_SESSION_ID",
        "XDG_SESSION_CLASS",
        "XDG_SESSION_DESKTOP",
        "DBUS_SESSION_BUS_ADDRESS",
    }
)


# A last word that names where a secret is or whose it is, not the secret: SOLANA_KEYPAIR_PATH,
# WALLET_ADDRESS, API_KEY_FILE, TOKEN_URL, CLIENT_ID hold a path, an address or a public id.
_NOT_A_VALUE = frozenset({"PATH", "FILE", "DIR", "FOLDER", "URL", "URI", "ADDRESS", "ADDR", "NAME", "ID", "TYPE",
                          "HOST", "PORT", "ENDPOINT", "REGION", "NETWORK", "CHAIN", "LENGTH", "LEN", "EXPIRY",
                          "EXPIRES", "TTL", "HEADER", "FORMAT", "PUBKEY", "PUBLIC", "COUNT", "SIZE", "LIMIT",
                          "TIMEOUT", "PREFIX", "ENABLED", "MODE", "VERSION", "INDEX", "SLOT"})  # fmt: skip


@functools.lru_cache(maxsize=4096)
def env_sensitivity(name: str) -> str:
    """'wallet key', 'secret-like name' or '' for an environment variable name."""
    upper = name.upper()
    if upper in _NOT_SECRET:
        return ""
    words = [w for w in re.split(r"[_\W]+", upper) if w]
    if words and words[-1] in _NOT_A_VALUE and upper not in ("SESSION_ID", "SESSIONID"):
        return ""
    if _WALLET_NAME.search(upper):
        return WALLET_KEY
    for word in re.split(r"[_\W]+", upper):
        if not word:
            continue
        if word in SECRET_WORDS or word.endswith(("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD")):
            return SECRET_LIKE
    return ""


# -- paths ---------------------------------------------------------------------------------

_HOME = r"(?:^|[\s'\"=:(]|~|\$HOME|\$\{HOME\}|%USERPROFILE%|/root|/home/[^/\s]+|/Users/[^/\s]+)"

# The agent's configuration and installed skills, from the names of registry/score/vocabulary.py.
_AGENT_FOLDER_INSTRUCTIONS = (
    names_pattern(vocab.AGENT_FOLDERS) + "/" + names_pattern(vocab.AGENT_INSTRUCTION_FOLDERS)
)  # .claude/commands, .cursor/rules ...
_SKILL_FOLDER = (
    r"(?:^|/)\.(?:" + "|".join(map(re.escape, vocab.SKILL_FOLDER_AGENTS)) + r")/skills(?:/|$)"
    r"|(?:^|/)" + re.escape(vocab.SHARED_SKILL_FOLDER) + "/"
)
_AGENT_CONFIG = (
    r"(?:^|/)" + names_pattern(vocab.AGENT_INSTRUCTION_FILES) + "$"
    r"|(?:^|/)" + names_pattern(vocab.WHOLE_AGENT_FOLDERS) + "/"
    r"|(?:^|/)" + names_pattern(vocab.BARE_AGENT_FOLDERS) + "$"
    r"|(?:^|/)" + _AGENT_FOLDER_INSTRUCTIONS + "(?:/|$)"
    r"|(?:^|/)" + names_pattern(vocab.AGENT_SETTINGS_FILES + vocab.AGENT_MCP_FILES) + "$"
    r"|(?:^|/)" + names_pattern(vocab.AGENT_CONFIG_PREFIXES) + "|" + re.escape(vocab.MCP_SERVERS_KEY)
)
# A credential store's path (vocabulary.SECRET_PATHS) anchored as a path, by its shape.
_PATH_ANCHORS = {
    vocab.FILE: (r"(?:^|/)", "$"),
    vocab.NAME_END: ("", "$"),
    vocab.FOLDER: (r"(?:^|/)", "(?:/|$)"),
    vocab.PART: ("", ""),
}


def _stores(kind: tuple[str, str]) -> str:
    """The credential stores of one kind (vocabulary.HOME_STORE ...) as one path pattern: the rows of each shape in
    one alternation between that shape's anchors (any row matching is all a class asks, so their order is free)."""
    anchored = []
    for shape, (before, after) in _PATH_ANCHORS.items():
        paths = [row.path for row in vocab.SECRET_PATHS if row.kind == kind and row.shape == shape]
        if paths:
            anchored.append(before + "(?:" + "|".join(paths) + ")" + after)
    return "|".join(anchored)


# (class, label, pattern): the first match wins, so the narrower classes come first.
_PATH_CLASSES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (cls, label, re.compile(pattern, re.IGNORECASE))
    for cls, label, pattern in (
        (SSH_LOGIN, "SSH authorized_keys", r"(?:^|/)authorized_keys2?$"),
        (*vocab.WALLET_STORE, _stores(vocab.WALLET_STORE)),
        (*vocab.KEYSTORE, _stores(vocab.KEYSTORE)),
        (*vocab.BROWSER_STORE, _stores(vocab.BROWSER_STORE)),
        (*vocab.HOME_STORE, _stores(vocab.HOME_STORE)),
        (SKILL_FOLDER, "another skill's folder", _SKILL_FOLDER),
        (AGENT_CONFIG, "the agent's own configuration", _AGENT_CONFIG),
        (SHELL_STARTUP, "a shell startup file",
         r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$"
         r"|\.config/fish/config\.fish$|^/etc/(?:profile|bash\.bashrc|zshrc|environment)(?:$|\.d/)|\$PROFILE$"),
        (SCHEDULED_JOB, "a scheduled job or service",
         r"^/etc/cron|/var/spool/cron|(?:^|/)crontab$|(?:/etc/systemd/|\.config/systemd/)[^\s]*\.(?:service|timer|socket|path)$"
         r"|Library/Launch(?:Agents|Daemons)"
         r"|/etc/init\.d/|/etc/rc\.local$|Start Menu/Programs/Startup|\\Startup\\|/etc/xdg/autostart|"
         r"\.config/autostart/"),
        (GIT_HOOK, "a git hook", r"(?:^|/)\.git/hooks/|(?:^|/)\.husky/"),
        (*vocab.SYSTEM_STORE,
         r"^/etc/(?:passwd|shadow|sudoers|hosts|ld\.so\.preload|selinux/|sysconfig/selinux)|^/boot/|^/dev/sd|^/usr/s?bin/|"
         + _stores(vocab.SYSTEM_STORE)),
    )
)  # fmt: skip

# Persistence points: writing there outlives the task.
PERSISTENCE_CLASSES = frozenset({SSH_LOGIN, AGENT_CONFIG, SKILL_FOLDER, SHELL_STARTUP, SCHEDULED_JOB, GIT_HOOK})
# Of the agent's configuration, what changes the agent's behaviour in later sessions: its instruction
# files, settings, MCP server lists, hooks, and anything user-wide under the home directory. A
# project's own .claude/commands or plugin state files are the project's work, not a foothold.
_AGENT_FOOTHOLD = re.compile(
    r"(?:^|/)"
    + names_pattern(
        vocab.AGENT_INSTRUCTION_FILES + vocab.AGENT_SETTINGS_NAMES + vocab.AGENT_SETTINGS_FILES + vocab.AGENT_MCP_NAMES
        + vocab.AGENT_MCP_FILES + (vocab.AGENT_HOOKS_FILE,)
    )
    + r"$|(?:^|/)" + re.escape(vocab.AGENT_HOOKS_FOLDER) + "/|" + re.escape(vocab.MCP_SERVERS_KEY)
    + "|^~/" + _AGENT_FOLDER_INSTRUCTIONS + "/",
    re.IGNORECASE,
)  # fmt: skip
# Reading these is reading a secret: credentials, cookies, wallets.
SECRET_PATH_CLASSES = frozenset({HOME_SECRET, BROWSER_PROFILE, WALLET})


_HOME_PREFIX = re.compile(r"^(?:\$\{?HOME\}?|%USERPROFILE%|/home/[^/\s]+|/Users/[^/\s]+|/root)(?=/|$)")


@functools.lru_cache(maxsize=8192)
def normal_path(path: str) -> str:
    """A path as the card shows it: `$HOME`, `${HOME}`, `os.homedir()` and `/home/<user>` become `~`."""
    text = path.strip().strip("'\"")
    if text[:1] in ("$", "%", "/"):
        text = _HOME_PREFIX.sub("~", text)
    return text.replace("\\", "/") if "\\" in text and "/" not in text else text


_MAYBE_CLASSED = re.compile(
    r"[/.~\\$]|^(?:id_|authorized_keys|crontab|mnemonic|" + re.escape(vocab.MCP_SERVERS_KEY) + ")", re.IGNORECASE
)


@functools.lru_cache(maxsize=4096)
def path_class(path: str) -> tuple[str, str]:
    """(class, label) of a path ('home-directory secret', 'a home-directory secret'), or ('', '')."""
    text = normal_path(path).rstrip("/") or path
    if not _MAYBE_CLASSED.search(text):
        return "", ""  # a bare word ("install", "-y"): no class matches without one of these
    for cls, label, pattern in _PATH_CLASSES:
        if pattern.search(text):
            return cls, label
    return "", ""


_KEY_FILE = re.compile(
    r"(?:^|/)id_(?:rsa|dsa|ecdsa|ed25519)$|\.(?:pem|key|p12|pfx|keystore)$|wallet|keypair|mnemonic|seed"
)
# Stores other programs own, whatever the skill is called: an "aws" skill reading ~/.aws is still reading them.
_SHARED_STORES = frozenset(
    {"ssh", "aws", "gnupg", "docker", "kube", "azure", "gcloud", "gh", "git", "npm", "netrc", "password-store",
     "solana", "ethereum", "bitcoin", "electrum", "config", "local"}
    | {folder.lstrip(".") for folder in vocab.AGENT_FOLDERS}
)  # fmt: skip
_OWN_SETTINGS = re.compile(
    r"^(?:[\w.-]+/)?(?:\.env(?:\.[\w-]+)?|(?:config|settings|credentials|auth|token|tokens)(?:\.(?:json|ya?ml|toml|ini|env))?)$"
)
_CONFIG_HOMES = ("~/.config/", "~/.local/share/", "~/Library/Application Support/", "~/.")


_NAME_SUFFIX = re.compile(r"[-_](?:skill|cli|agent|mcp)$")


def own_names(skill_name: str | None, folder: str) -> tuple[str, ...]:
    """The names a skill's own configuration folder goes by: its name and folder, with and without -skill/-cli."""
    names = set()
    for name in (skill_name or "", folder.rstrip("/").rsplit("/", 1)[-1]):
        name = name.strip().lower()
        if len(name) >= 3:
            names |= {name, _NAME_SUFFIX.sub("", name)}
    return tuple(sorted(n for n in names if len(n) >= 3))


def own_configuration(path: str, own: tuple[str, ...]) -> bool:
    """`~/.config/<own name>/.env` and the like: the skill's own settings, which the user filled in for it.

    Reading and using them is the skill working, not a credential theft; a private key or a wallet
    kept there is still one.
    """
    if not own:
        return False
    normal = normal_path(path)
    lower = normal.lower()
    for home in _CONFIG_HOMES:
        home = home.lower()
        if lower.startswith(home):
            folder, _, rest = lower[len(home) :].partition("/")
            folder = folder.lstrip(".")
            return (
                folder in own
                and folder not in _SHARED_STORES
                and _OWN_SETTINGS.search(rest) is not None
                and not _KEY_FILE.search(lower)
            )
    return False


def secret_label(path: str, own: tuple[str, ...] = ()) -> str:
    """What reading `path` reads when it is a secret ('a home-directory secret', 'a crypto wallet'), else ""."""
    cls, label = path_class(path)
    if cls not in SECRET_PATH_CLASSES or own_configuration(path, own):
        return ""
    return label


_PRIVATE_KEY_NAME = re.compile(r"(?:^|/)id_(?:rsa|dsa|ecdsa|ed25519)$")


@functools.lru_cache(maxsize=4096)
def name_pattern(fragment: str) -> tuple[str, str]:
    """(pattern, label) for a file-name fragment a script tests names against ('wallet.dat', '.keystore',
    'mnemonic', 'id_rsa') when it picks out wallets, seed phrases or private keys: ('**/*.keystore',
    'a keystore'); ('', '') for any other fragment."""
    if not fragment or "/" in fragment or len(fragment) > 100:
        return "", ""
    if fragment.startswith("."):  # a suffix, tested with endswith
        forms: tuple[str, ...] = (f"**/*{fragment}",)
    elif "." in fragment or _PRIVATE_KEY_NAME.search("/" + fragment):  # a whole name
        forms = (f"**/{fragment}",)
    else:  # a prefix, tested with startswith
        forms = (f"**/{fragment}*",)
    for pattern in forms:
        cls, label = path_class(pattern)
        if cls == WALLET or (cls == HOME_SECRET and _PRIVATE_KEY_NAME.search(pattern)):
            return pattern, label
    return "", ""


def path_sensitivity(path: str) -> str:
    return path_class(path)[0]


def is_persistence_point(path: str) -> bool:
    """Writing here outlives the task (the agent's configuration only where it steers later sessions)."""
    cls = path_class(path)[0]
    if cls == AGENT_CONFIG:
        return _AGENT_FOOTHOLD.search(normal_path(path)) is not None
    return cls in PERSISTENCE_CLASSES


def is_secret_path(path: str) -> bool:
    return path_class(path)[0] in SECRET_PATH_CLASSES


def is_home(path: str) -> bool:
    """The home directory itself (or the root): listing it is reconnaissance."""
    return normal_path(path).rstrip("/") in ("~", "", "/Users", "/home") or path.strip() == "/"


# -- hosts ---------------------------------------------------------------------------------

_HOST_CLASSES = {
    RAW_IP: RAW_IP_ADDRESS,
    "a paste site": PASTE_OR_CAPTURE,
    "an anonymous file-drop host": PASTE_OR_CAPTURE,
    "a request-capture service": PASTE_OR_CAPTURE,
    "a tunnel endpoint": TUNNEL,
    "a URL shortener": SHORTENER,
    "a dynamic-DNS host": DYNAMIC_DNS,
}


def host_sensitivity(host: str | None) -> str:
    """The card class of a host with no accountable owner (raw IP, paste site, tunnel ...), or ''."""
    kind = host_kind(host)
    return _HOST_CLASSES.get(kind, "") if kind else ""


def host_label(host: str) -> str:
    """'203.0.113.5 (a raw IP address)' for an unaccountable host, the bare host otherwise."""
    kind = host_kind(host)
    return f"{host} ({kind})" if kind else host


_LOCAL = re.compile(r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|[\w-]+\.local|host\.docker\.internal)$")


def is_local_host(host: str) -> bool:
    return bool(_LOCAL.match(host))


_HOST_END = re.compile(r"[a-z0-9]\.[a-z][a-z0-9-]*[a-z0-9]$|\d$", re.IGNORECASE)


def host_of_pieces(url: str) -> str | None:
    """The host of a URL assembled from literal pieces, `*` standing for each part only known at run time.

    `"https://api.github.com" + path` is api.github.com; `"https://" + host + "/x"` and
    `"https://api." + domain` name no host: a host is read only when the literal part before the
    first `*` ends where a host can end (a name with a top-level label, or an IP address) or the
    `*` comes after the host.
    """
    head, star, _ = url.partition("*")
    if not star:
        return url_host(url)
    _, separator, rest = head.partition("://")
    if not separator:
        return None
    if "/" in rest or "?" in rest or "#" in rest:
        return url_host(head)  # the run-time part is in the path or the query
    if not _HOST_END.search(rest):
        return None
    return url_host(head)


# Placeholders an agent replaces in a skill's text before anything runs (Claude Code's `$ARGUMENTS`,
# `${CLAUDE_SKILL_DIR}` ...): they look like environment variables and are not read from the environment.
AGENT_SUBSTITUTIONS = frozenset({"ARGUMENTS", "CLAUDE_SESSION_ID", "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT"})
