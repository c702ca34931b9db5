"""Changes to the machine's defences and to shared history, read from parsed commands (R190-R194).

The shell reader (shell.py) hands each command it meets, after its wrappers (`sudo`, `env`, `xargs`),
to `command_changes`; every parser hands each file write to `Facts.system_write` (model.py), which
asks `written_changes`. What they return are `Change`s, judged into findings by flows.py:

- root access granted: a rule written into /etc/sudoers or /etc/sudoers.d (by `tee`, a
  redirection, a copy, `sed -i`, `EDITOR='tee -a' visudo`), the setuid bit set on a shell, an
  interpreter or a copy of one, an account with uid 0;
- a security control turned off: SELinux (`setenforce 0`, SELINUX=disabled), AppArmor, the
  firewall (ufw, iptables, nft, firewalld, netsh, the macOS application firewall), Windows
  Defender, Gatekeeper, System Integrity Protection, the audit daemon;
- a user added to a group that is root in all but name (sudo, wheel, admin, docker, lxd ...);
- shared history overwritten or deleted: a force push of every branch, of tags, of a mirror or of
  a default branch (main, master, trunk, develop, release...), a force push after rewriting
  every commit (filter-branch, filter-repo, BFG), the deletion of many remote branches at once or
  of a default branch, the deletion of the repository itself;
- a force push of one other branch (the milder case; `--force-with-lease` on a feature branch,
  the safe form a rebase guide teaches, is not reported).

Windows commands are read from PowerShell and batch fences and scripts (and `powershell -Command`
strings) by `windows_changes`, a whole-text search: those languages have no parser here.
Commands that only read or undo (`setenforce 1`, `ufw allow 22`, `cat /etc/sudoers`, `visudo -c`,
`git push origin --delete feature-x`) are not changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from registry.score.vocabulary import PARAGRAPH_BREAKS, sentence_end

# Change kinds.
ROOT_GRANT = "root grant"
CONTROL_OFF = "control off"
GROUP_ADD = "privileged group"
HISTORY_LOSS = "history loss"
FORCE_PUSH = "force push"


@dataclass(frozen=True, slots=True)
class Change:
    kind: str
    what: str  # "writes `NOPASSWD: ALL` into /etc/sudoers.d/90-agent", for the finding's message
    line: int  # file line
    row: int  # 0-based row of the unit (comments above it may warn)
    evidence: str


# -- root access ---------------------------------------------------------------------------

SUDOERS = re.compile(r"^(?:/private|/usr/local)?/etc/sudoers(?:\.d/[^\s]*)?$")
_PASSWD = re.compile(r"^/etc/passwd$")
_SELINUX_CONFIG = re.compile(r"^/etc/(?:selinux/config|sysconfig/selinux)$")
_NOPASSWD = re.compile(r"NOPASSWD\s*:\s*(\S+)?", re.IGNORECASE)
_SUDO_RULE = re.compile(r"\bALL\s*=\s*\(", re.IGNORECASE)
_UID0 = re.compile(r"(?:^|[\s'\"])[\w.-]+:[^:\s]*:0:\d+:", re.MULTILINE)
_SELINUX_OFF = re.compile(r"\bSELINUX\s*=\s*[\"']?(?:disabled|permissive)\b", re.IGNORECASE)
# Files whose setuid bit gives a root shell to whoever runs them (shells, interpreters, and the
# tools that spawn one or write any file: the GTFOBins classics).
SETUID_TARGETS = frozenset(
    """sh bash dash zsh ksh mksh fish ash csh tcsh busybox python python2 python3 perl ruby node nodejs php lua
    env find vim vi nano less more awk gawk mawk tee cp mv dd tar nmap xargs socat nc ncat""".split()
)
_INTERPRETER_VERSION = re.compile(r"^(python|perl|ruby|php|lua|node)[\d.]+$")


def written_changes(path: str, content: str) -> list[tuple[str, str]]:
    """(kind, what) for content written to a system file: sudoers, /etc/passwd, the SELinux config."""
    if not path.startswith(("/etc/", "/private/etc/", "/usr/local/etc/")):
        return []
    if SUDOERS.match(path):
        grant = _NOPASSWD.search(content)
        if grant:
            scope = grant.group(1) or ""
            what = "`NOPASSWD: ALL`" if scope.upper().startswith("ALL") else f"a `NOPASSWD` rule ({scope[:40]})"
            return [(ROOT_GRANT, f"writes {what} into {path} (root without a password prompt)")]
        if _SUDO_RULE.search(content):
            return [(ROOT_GRANT, f"writes a sudo rule into {path}")]
        return [(ROOT_GRANT, f"writes into {path}, which decides who may act as root")]
    if _PASSWD.match(path) and _UID0.search(content):
        return [(ROOT_GRANT, f"writes an account with uid 0 into {path} (a second root login)")]
    if _SELINUX_CONFIG.match(path) and _SELINUX_OFF.search(content):
        return [(CONTROL_OFF, f"sets SELinux to disabled or permissive in {path}")]
    return []


def setuid_mode(mode: str) -> bool:
    """`u+s`, `+s`, `ug+s`, `a+s`, `4755`, `6755`: the mode sets the setuid bit."""
    if re.fullmatch(r"0?[4-7][0-7]{3}", mode):
        return int(mode[-4]) & 4 == 4
    for part in mode.split(","):
        who, plus, what = part.partition("+")
        if plus and "s" in what and re.fullmatch(r"[ugoa]*", who) and (not who or "u" in who or "a" in who):
            return True
    return False


def is_setuid_target(path: str) -> bool:
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name in SETUID_TARGETS or bool(_INTERPRETER_VERSION.match(name))


# -- commands ------------------------------------------------------------------------------

PRIVILEGED_GROUPS = frozenset(
    "sudo wheel admin root docker lxd lxc incus-admin libvirt disk shadow sudoers administrators".split()
)
SECURITY_SERVICES = {
    "apparmor": "AppArmor",
    "firewalld": "the firewall (firewalld)",
    "ufw": "the firewall (ufw)",
    "iptables": "the firewall (iptables)",
    "ip6tables": "the firewall (ip6tables)",
    "nftables": "the firewall (nftables)",
    "netfilter-persistent": "the firewall (netfilter-persistent)",
    "auditd": "the audit daemon",
    "windefend": "Windows Defender",
}
# Programs command_changes reads (cheap membership test before any work).
PROGRAMS = frozenset(
    """setenforce systemctl service aa-teardown aa-disable ufw iptables ip6tables nft netsh spctl csrutil socketfilterfw
    auditctl grubby chmod usermod gpasswd adduser addgroup useradd dseditgroup net sed powershell pwsh sc visudo
    bfg""".split()
)
_KERNEL_OFF = re.compile(r"\b(?:selinux|enforcing|apparmor|security)=(?:0|none)\b")


def command_changes(program: str, words: list[str], assigned: str = "") -> list[tuple[str, str]]:
    """(kind, what) for one command after its wrappers; `words` are its arguments as written.

    `assigned` is the text of the variable assignments before the command (`EDITOR='tee -a' visudo`).
    """
    lower = [w.lower() for w in words]
    plain = [w for w in lower if not w.startswith("-")]
    if program == "setenforce":
        if plain[:1] and plain[0] in ("0", "permissive"):
            return [(CONTROL_OFF, "turns SELinux enforcement off (setenforce 0)")]
        return []
    if program in ("systemctl", "service"):
        verbs = ("stop", "disable", "mask", "kill")
        if program == "service" and len(plain) >= 2 and plain[1] in verbs:
            units = [plain[0]]
        elif program == "systemctl" and plain and plain[0] in verbs:
            units = plain[1:]
        else:
            return []
        for unit in units:
            name = SECURITY_SERVICES.get(unit.removesuffix(".service"))
            if name:
                return [(CONTROL_OFF, f"stops or disables {name} ({program} {' '.join(words)[:60]})")]
        return []
    if program == "aa-teardown":
        return [(CONTROL_OFF, "unloads every AppArmor profile (aa-teardown)")]
    if program == "aa-disable":
        return [(CONTROL_OFF, f"removes AppArmor confinement ({program} {' '.join(words)[:60]})")]
    if program == "ufw":
        if plain[:1] == ["disable"] or (plain[:2] == ["default", "allow"] and "outgoing" not in plain):
            return [(CONTROL_OFF, f"turns the firewall off (ufw {' '.join(words)[:40]})")]
        return []
    if program in ("iptables", "ip6tables"):
        table = _after(lower, ("-t", "--table")) or "filter"
        if table == "filter" and ("-F" in words or "--flush" in lower):
            return [(CONTROL_OFF, f"flushes every firewall rule ({program} -F)")]
        policy = _after(words, ("-P", "--policy"))
        if policy and policy.upper() in ("INPUT", "FORWARD") and "ACCEPT" in words:
            return [(CONTROL_OFF, f"sets the firewall's {policy.upper()} policy to ACCEPT")]
        return []
    if program == "nft":
        if plain[:2] == ["flush", "ruleset"]:
            return [(CONTROL_OFF, "flushes every firewall rule (nft flush ruleset)")]
        return []
    if program in ("netsh", "sc", "powershell", "pwsh"):
        return [(kind, what) for kind, what, _ in windows_changes(f"{program} {' '.join(words)}")]
    if program == "spctl" and any(w in ("--master-disable", "--global-disable") for w in lower):
        return [(CONTROL_OFF, "turns Gatekeeper off (spctl --master-disable)")]
    if program == "csrutil" and plain[:1] == ["disable"]:
        return [(CONTROL_OFF, "turns System Integrity Protection off (csrutil disable)")]
    if program == "socketfilterfw" and "--setglobalstate" in lower and "off" in lower:
        return [(CONTROL_OFF, "turns the macOS application firewall off")]
    if program == "auditctl" and _after(lower, ("-e",)) == "0":
        return [(CONTROL_OFF, "turns system auditing off (auditctl -e 0)")]
    if program == "grubby" and any(_KERNEL_OFF.search(w) for w in lower):
        return [(CONTROL_OFF, "boots the kernel with SELinux or AppArmor off")]
    if program == "chmod" and len(plain) >= 1:
        mode = next((w for w in words if not w.startswith("-")), "")
        targets = [w for w in words[words.index(mode) + 1 :] if not w.startswith("-")] if mode else []
        if mode and setuid_mode(mode):
            hit = next((t for t in targets if is_setuid_target(t)), None)
            if hit:
                return [(ROOT_GRANT, f"sets the setuid bit on {hit} (chmod {mode}), a root shell for anyone")]
        return []
    if program in ("usermod", "useradd"):
        out = []
        uid = _after(lower, ("-u", "--uid"))
        if uid == "0":
            out.append((ROOT_GRANT, f"gives an account uid 0 ({program} -u 0), a second root login"))
        groups = _after(lower, ("-g", "--groups", "--gid", "-ag", "-ga"), prefix=True)
        named = _privileged(groups)
        if named:
            out.append((GROUP_ADD, f"adds a user to the {named} group ({program})"))
        return out
    if program == "gpasswd" and any(w in ("-a", "--add", "-m", "--members") for w in lower) and plain:
        named = _privileged(plain[-1])
        return [(GROUP_ADD, f"adds a user to the {named} group (gpasswd)")] if named else []
    if program in ("adduser", "addgroup") and len(plain) == 2:
        named = _privileged(plain[1])
        return [(GROUP_ADD, f"adds a user to the {named} group ({program})")] if named else []
    if program == "dseditgroup" and "-a" in lower and plain:
        named = _privileged(plain[-1])
        return [(GROUP_ADD, f"adds a user to the {named} group (dseditgroup)")] if named else []
    if program == "net" and plain[:1] == ["localgroup"] and "/add" in lower and len(plain) >= 2:
        named = _privileged(plain[1])
        return [(GROUP_ADD, f"adds a user to the {named} group (net localgroup)")] if named else []
    if program == "sed" and any(w.startswith("-i") or w.startswith("--in-place") for w in lower):
        script = _after(words, ("-e", "--expression")) or next((w for w in words if not w.startswith("-")), "")
        files = [w for w in words if not w.startswith("-") and w != script]
        return [change for path in files for change in written_changes(path, _sed_writes(script))]
    if program == "visudo" and re.search(r"\b(?:SUDO_)?(?:EDITOR|VISUAL)\s*=\s*['\"]?(?:tee|sed|cp|dd)\b", assigned):
        path = _after(words, ("-f", "--file")) or "/etc/sudoers"
        return [(ROOT_GRANT, f"writes into {path} through visudo's editor")]
    return []


def _sed_writes(script: str) -> str:
    """What a sed script puts into the file: the replacement of `s/old/new/`, or the whole script."""
    if len(script) > 2 and script[0] == "s" and not script[1].isalnum() and not script[1].isspace():
        parts = script[2:].split(script[1])
        return parts[1] if len(parts) > 1 else script
    return script


def _after(words: list[str], options: tuple[str, ...], prefix: bool = False) -> str:
    """The value of an option: `-G docker`, `--groups=docker`, or (prefix) `-aGdocker`."""
    for index, word in enumerate(words):
        if word in options and index + 1 < len(words):
            return words[index + 1]
        for option in options:
            if option.startswith("--") and word.startswith(option + "="):
                return word.split("=", 1)[1]
            if prefix and not option.startswith("--") and word.startswith(option) and len(word) > len(option):
                return word[len(option) :]
    return ""


def _privileged(groups: str) -> str:
    for group in groups.split(","):
        if group.strip().lower() in PRIVILEGED_GROUPS:
            return group.strip()
    return ""


# -- Windows -------------------------------------------------------------------------------

_WINDOWS = (
    (CONTROL_OFF, "turns Windows Defender protection off ({m})",
     r"\bSet-MpPreference\b[^\n;|]{0,200}?-Disable(?:RealtimeMonitoring|BehaviorMonitoring|IOAVProtection|"
     r"ScriptScanning|IntrusionPreventionSystem|BlockAtFirstSeen|ArchiveScanning)\b(?:\s+|:)(?:\$true|1|\$?True)\b"),
    (CONTROL_OFF, "excludes files from Windows Defender scanning ({m})",
     r"\b(?:Add|Set)-MpPreference\b[^\n;|]{0,200}?-Exclusion(?:Path|Process|Extension)\b"),
    (CONTROL_OFF, "turns the Windows firewall off ({m})",
     r"\bnetsh\s+(?:advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+(?:mode\s*=\s*)?disable)\b"
     r"|\bSet-NetFirewallProfile\b[^\n;|]{0,200}?-Enabled\s+(?:\$?False|0)\b"),
    (CONTROL_OFF, "stops or disables Windows Defender ({m})",
     r"\bsc(?:\.exe)?\s+(?:stop|config)\s+WinDefend\b|\b(?:Stop|Set)-Service\b[^\n;|]{0,80}?\bWinDefend\b"),
    (GROUP_ADD, "adds a user to the Administrators group ({m})",
     r"\bAdd-LocalGroupMember\b[^\n;|]{0,120}?-Group\s+['\"]?Administrators\b"
     r"|\bnet\s+localgroup\s+administrators\s+\S+\s+/add\b"),
)  # fmt: skip
_WINDOWS_PATTERNS = tuple((kind, what, re.compile(pattern, re.IGNORECASE)) for kind, what, pattern in _WINDOWS)
WINDOWS_WORDS = re.compile(r"mppreference|netsh|firewallprofile|windefend|localgroup", re.IGNORECASE)


def windows_changes(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, what, offset) for Windows commands in PowerShell or batch text."""
    if not WINDOWS_WORDS.search(text):
        return
    for kind, what, pattern in _WINDOWS_PATTERNS:
        for match in pattern.finditer(text):
            shown = " ".join(match.group(0).split())
            yield kind, what.format(m=shown[:80]), match.start()
            break


# -- shared history (git) ------------------------------------------------------------------

DEFAULT_BRANCHES = re.compile(
    r"^(?:refs/heads/)?(?:main|master|trunk|develop|development|dev|prod|production|stable|release(?:[/-].*)?|"
    r"gh-pages|default)$",
    re.IGNORECASE,
)
_GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
_PUSH_VALUE_OPTIONS = frozenset({"--repo", "--receive-pack", "--exec", "-o", "--push-option", "--signed"})


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    literal: bool  # no expansion in it


def subcommand(words: list[Word]) -> tuple[str, list[Word]]:
    """git's subcommand and what follows it (`git -C repo push ...` -> ('push', [...]))."""
    index = 0
    while index < len(words):
        text = words[index].text
        if text in _GIT_VALUE_OPTIONS:
            index += 2
            continue
        if text.startswith("-"):
            index += 1
            continue
        return text, words[index + 1 :]
    return "", []


def push_changes(words: list[Word], rewrote: bool, repeated: bool) -> list[tuple[str, str]]:
    """(kind, what) for `git push <words>`.

    `rewrote`: the same unit rewrote every commit before (filter-branch, filter-repo, BFG);
    `repeated`: the push runs once per item (inside a loop or under xargs).
    """
    force = lease = every = mirror = tags = delete = prune = False
    positional: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        text = word.text
        if text in _PUSH_VALUE_OPTIONS:
            index += 2
            continue
        if text == "--force":
            force = True
        elif text.startswith(("--force-with-lease", "--force-if-includes")):
            lease = True
        elif text in ("--all", "--branches"):
            every = True
        elif text == "--mirror":
            mirror = True
        elif text == "--tags":
            tags = True
        elif text == "--delete":
            delete = True
        elif text == "--prune":
            prune = True
        elif text == "--dry-run":
            return []
        elif re.fullmatch(r"-[a-zA-Z]+", text):
            if "n" in text:
                return []  # a dry run
            force = force or "f" in text
            delete = delete or "d" in text
        elif not text.startswith("-"):
            positional.append(word)
        index += 1
    refspecs = positional[1:]
    forced_refs = [w for w in refspecs if w.text.startswith("+")]
    force = force or bool(forced_refs)
    destinations = [_destination(w.text) for w in refspecs]
    deleted = [w for w in refspecs if delete or w.text.startswith(":")]
    out: list[tuple[str, str]] = []
    if deleted or (prune and (every or mirror)):
        many = [w for w in deleted if not w.literal and (repeated or w.text.startswith(("$(", "`")))]
        wildcard = [w for w in deleted if "*" in w.text]
        protected = [w.text for w in deleted if DEFAULT_BRANCHES.match(_destination(w.text))]
        if prune and (every or mirror):
            out.append((HISTORY_LOSS, "deletes every remote branch missing locally (git push --prune --all)"))
        elif many or wildcard or len(deleted) >= 3:
            out.append((HISTORY_LOSS, "deletes remote branches in bulk (git push --delete, one per item)"))
        elif protected:
            out.append((HISTORY_LOSS, f"deletes the remote's {protected[0].lstrip(':')} branch"))
        if out or delete:
            return out
    if mirror:
        return [(HISTORY_LOSS, "overwrites the remote with a mirror (git push --mirror), every ref replaced")]
    if not force and not lease:
        return []
    strong = force  # --force (or a + refspec) overwrites whatever is there; a lease refuses if it moved
    named = next((d for d in destinations if DEFAULT_BRANCHES.match(d) or "*" in d), "")
    if strong and (every or tags):
        which = "every branch" if every else "every tag"
        return [(HISTORY_LOSS, f"force-pushes {which} (git push --force {'--all' if every else '--tags'})")]
    if strong and named:
        return [(HISTORY_LOSS, f"force-pushes over the remote's {named} branch")]
    if strong and rewrote:
        return [(HISTORY_LOSS, "rewrites every commit (filter-branch, filter-repo or BFG), then force-pushes")]
    if strong:
        which = destinations[0] if destinations and destinations[0] not in ("", "HEAD") else "the current branch"
        return [(FORCE_PUSH, f"force-pushes {which}, replacing the remote's history")]
    if named or every or tags:  # --force-with-lease over a default branch or all of them
        which = named or ("every branch" if every else "every tag")
        return [(FORCE_PUSH, f"force-pushes (with lease) over {which}")]
    return []


def _destination(refspec: str) -> str:
    text = refspec.lstrip("+")
    return text.rsplit(":", 1)[-1] if ":" in text else text


def repository_deleted(program: str, words: list[str]) -> bool:
    """`gh repo delete`: the repository, its history and its issues gone."""
    return program == "gh" and words[:2] == ["repo", "delete"]


# -- the prose around a code block ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Surroundings:
    intro_warns: bool  # the lines before the block warn against what it shows
    asked: str  # the sentence of its section that says to go ahead without asking, or ""


# An instruction to act without the user's say: "do this without asking", "don't ask for
# confirmation", "no need to confirm", "skip the confirmation". A negation before "without"
# ("never force-push without asking") is the opposite advice.
_UNATTENDED = re.compile(
    r"\bwithout\s+(?:asking|confirm\w*|(?:first\s+)?check(?:ing)?\s+with|prompt\w*|waiting\s+for|"
    r"(?:the\s+)?user(?:'s)?\s+(?:approval|confirmation|consent))"
    r"|\b(?:don'?t|do\s+not|no\s+need\s+to)\s+(?:ask|confirm|check\s+with|prompt|wait\s+for)\b"
    r"|\bskip\s+(?:the\s+)?(?:confirmation|approval|prompt)s?\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:never|don'?t|do\s+not|must\s+not|should\s+not|shouldn'?t|not)\b", re.IGNORECASE)
_SENTENCE_END = sentence_end(PARAGRAPH_BREAKS)


def unattended(text: str) -> str:
    """The sentence of `text` that tells the agent to go ahead without the user's confirmation, or ''."""
    if "ask" not in text and "confirm" not in text and "prompt" not in text and "approv" not in text:
        return ""
    for match in _UNATTENDED.finditer(text):
        start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, match.start())), default=0)
        before = text[start : match.start()]
        said = match.group(0).lower()
        if said.startswith("without") and _NEGATION.search(before):
            continue  # "never push without asking"
        end = _SENTENCE_END.search(text, match.end())
        return " ".join(text[start : end.end() if end else len(text)].split())[:160]
    return ""
