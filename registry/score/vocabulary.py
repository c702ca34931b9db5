"""The words the risk analysis reads by, defined once: hosts and what kind of owner they have, installers,
network programs and sentences.

Every analyser (line rules, parsed code, prose, every byte, card rules) asks this module what a host
is, so a host cannot be a paste site for one rule and an ordinary name for another. Adding a host or
an installer is a change to the tables below and nothing else; docs/risk.md lists them.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

_URL = r"(?:https?|ftp)://[^\s'\"`<>|;)\]}\\,]+"
URL = re.compile(_URL, re.IGNORECASE)

# Hosts with no accountable owner: anyone can put anything there in a minute, under no name.
SUSPICIOUS_HOSTS: dict[str, tuple[str, ...]] = {
    "a paste site": (
        "pastebin.com", "paste.ee", "hastebin.com", "ghostbin.com", "ghostbin.co", "rentry.co", "rentry.org",
        "termbin.com", "ix.io", "sprunge.us", "dpaste.com", "dpaste.org", "controlc.com", "privatebin.net",
        "justpaste.it", "paste.rs", "pastes.io", "glot.io", "pastebin.pl", "paste.c-net.org",
    ),
    "an anonymous file-drop host": (
        "transfer.sh", "file.io", "0x0.st", "temp.sh", "tmpfiles.org", "catbox.moe", "gofile.io", "anonfiles.com",
        "bashupload.com", "oshi.at", "filebin.net", "uguu.se", "pixeldrain.com", "send.now", "x0.at",
        "litterbox.catbox.moe", "files.catbox.moe", "mediafire.com", "mega.nz", "sendspace.com",
    ),
    "a request-capture service": (
        "webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "hookbin.com", "beeceptor.com",
        "requestcatcher.com", "postb.in", "ptsv2.com", "ptsv3.com", "interact.sh", "interactsh.com", "oast.fun",
        "oast.live", "oast.site", "oast.online", "oast.pro", "oast.me", "burpcollaborator.net", "oastify.com",
        "canarytokens.com", "dnslog.cn", "ceye.io", "webhook.cool",
    ),
    "a tunnel endpoint": (
        "ngrok.io", "ngrok-free.app", "ngrok.app", "ngrok-free.dev", "trycloudflare.com", "serveo.net", "loca.lt",
        "localtunnel.me", "localhost.run", "lhr.life", "bore.pub", "pinggy.link",
    ),
    "a URL shortener": (
        "bit.ly", "tinyurl.com", "is.gd", "cutt.ly", "rb.gy", "shorturl.at", "goo.gl", "ow.ly", "tiny.cc", "v.gd",
        "rebrand.ly", "t.ly", "s.id",
    ),
    "a dynamic-DNS host": (
        "duckdns.org", "ddns.net", "no-ip.org", "no-ip.com", "hopto.org", "zapto.org", "sytes.net", "dynu.net",
        "freedns.afraid.org", "servehttp.com", "myftp.org",
    ),
}  # fmt: skip
CAPTURE_KINDS = ("a paste site", "an anonymous file-drop host", "a request-capture service")
RAW_IP = "a raw IP address"

# Free hosting: a subdomain anyone can claim in a minute. Real projects serve pages there, so a
# host here is not suspicious by itself; a program to download and run from one is (a lure).
FREE_HOSTING = (
    "netlify.app", "vercel.app", "pages.dev", "workers.dev", "herokuapp.com", "onrender.com", "glitch.me",
    "repl.co", "replit.app", "web.app", "firebaseapp.com", "000webhostapp.com", "surge.sh", "fly.dev",
    "github.io", "gitlab.io", "blogspot.com", "wixsite.com", "weebly.com", "azurewebsites.net", "appspot.com",
    "r2.dev", "deno.dev", "railway.app", "up.railway.app", "neocities.org", "tiiny.site", "carrd.co",
)  # fmt: skip

# Cloud instance metadata: a request here from a skill reads the machine's cloud credentials.
METADATA_HOSTS = (
    "169.254.169.254",
    "metadata.google.internal",
    "metadata.azure.com",
    "100.100.100.200",
    "fd00:ec2::254",
    "169.254.170.2",  # ECS task metadata: the task role's credentials
)
# Paths of those endpoints that hand out credentials (role keys, OAuth tokens, the instance's user data,
# which often holds bootstrap secrets); any other path is a fact about the machine (its id, region, type).
METADATA_CREDENTIAL_PATHS = (
    "/iam/security-credentials", "/identity-credentials/", "/ram/security-credentials", "/user-data",
    "/service-accounts/", "/identity/oauth2/token", "/v2/credentials", "/attributes/kube-env",
    "/attributes/startup-script", "/instance/attributes/ssh-keys", "/project/attributes/ssh-keys",
)  # fmt: skip

# Package registries, their well-known mirrors and the hosted services organisations run their own
# registries on. Installing from one of these is installing from an owner who answers for it; any other
# registry (`npm install --registry`, `pip install --index-url`, `.npmrc registry=`) serves whatever its
# operator wants under the names the skill asks for.
PACKAGE_REGISTRIES: dict[str, tuple[str, ...]] = {
    "npm": (
        "registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com", "registry.npmmirror.com",
        "registry.npm.taobao.org", "npm.pkg.github.com", "npm.jsr.io",
    ),
    "PyPI": (
        "pypi.org", "pypi.python.org", "files.pythonhosted.org", "download.pytorch.org", "pypi.nvidia.com",
        "pypi.ngc.nvidia.com", "data.pyg.org", "pypi.tuna.tsinghua.edu.cn", "mirrors.tuna.tsinghua.edu.cn",
        "mirrors.aliyun.com", "mirrors.cloud.tencent.com", "repo.huaweicloud.com", "mirrors.ustc.edu.cn",
        "mirrors.bfsu.edu.cn", "pypi.mirrors.ustc.edu.cn", "pypi.douban.com", "wheels.myhloli.com",
    ),
    "hosted registry services": (
        "jfrog.io", "pkgs.dev.azure.com", "pkgs.visualstudio.com", "gitlab.com", "cloudsmith.io", "fury.io",
        "pkg.dev", "pkg.github.com", "buildkite.com", "packagecloud.io",
    ),
}  # fmt: skip

# IP geolocation services: what they return for the caller's address is where the machine is (city,
# region, coordinates). A request to one from a skill looks the user up.
GEOLOCATION_HOSTS = (
    "ipapi.co", "ip-api.com", "ipinfo.io", "ipwho.is", "ipwhois.app", "ipwhois.io", "freegeoip.app", "geojs.io",
    "ipgeolocation.io", "ipdata.co", "geoplugin.net", "extreme-ip-lookup.com", "ip2location.io", "ipregistry.co",
    "ipstack.com", "db-ip.com", "geolocation-db.com", "ipapi.com", "ipbase.com", "ipgeolocation.abstractapi.com",
    "ipapi.is", "iplocation.net", "geoip.maxmind.com",
)  # fmt: skip


@dataclass(frozen=True)
class Installer:
    """A vendor's documented `curl … | sh` installer: its host and, on a shared host, the path it lives under."""

    vendor: str
    host: str
    path: str = ""  # lower-case path prefix; "" for every path of a host the vendor owns


# The installers a tool's own documentation tells people to pipe into a shell. A download from one of
# these, over HTTPS, is the vendor's installer: worth a reviewer's glance (medium), not an alarm.
WELL_KNOWN_INSTALLERS: tuple[Installer, ...] = (
    Installer("Homebrew", "raw.githubusercontent.com", "/homebrew/install/"),
    Installer("nvm", "raw.githubusercontent.com", "/nvm-sh/nvm/"),
    Installer("Helm", "raw.githubusercontent.com", "/helm/helm/"),
    Installer("Oh My Zsh", "raw.githubusercontent.com", "/ohmyzsh/ohmyzsh/"),
    Installer("rustup", "sh.rustup.rs"),
    Installer("rustup", "static.rust-lang.org", "/rustup/"),
    Installer("uv and Ruff (Astral)", "astral.sh"),
    Installer("Bun", "bun.sh"),
    Installer("Bun", "bun.com"),
    Installer("Deno", "deno.land"),
    Installer("Deno", "deno.com"),
    Installer("NodeSource", "deb.nodesource.com"),
    Installer("NodeSource", "rpm.nodesource.com"),
    Installer("Azure CLI", "aka.ms", "/installazurecli"),
    Installer("Flux", "fluxcd.io", "/install.sh"),
    Installer("Linkerd", "run.linkerd.io"),
    Installer("Claude Code", "claude.ai", "/install.sh"),
    Installer("Docker", "get.docker.com"),
    Installer("pnpm", "get.pnpm.io"),
    Installer("Poetry", "install.python-poetry.org"),
    Installer("Ollama", "ollama.com", "/install.sh"),
    Installer("Tailscale", "tailscale.com", "/install.sh"),
    Installer("k3s", "get.k3s.io"),
    Installer("Nix", "nixos.org", "/nix/install"),
    Installer("Determinate Nix", "install.determinate.systems"),
    Installer("SDKMAN!", "get.sdkman.io"),
    Installer("Starship", "starship.rs", "/install.sh"),
    Installer("pyenv", "pyenv.run"),
    Installer("Volta", "get.volta.sh"),
    Installer("fnm", "fnm.vercel.app", "/install"),
    Installer("Foundry", "foundry.paradigm.xyz"),
    Installer("Solana", "release.solana.com"),
    Installer("Anza (Solana)", "release.anza.xyz"),
    Installer("Fly.io", "fly.io", "/install.sh"),
    Installer("Google Cloud SDK", "sdk.cloud.google.com"),
    Installer("Dagger", "dl.dagger.io"),
    Installer("Pulumi", "get.pulumi.com"),
    Installer("mise", "mise.run"),
    Installer("mise", "mise.jdx.dev", "/install.sh"),
    Installer("Rye", "rye.astral.sh"),
    Installer("pixi", "pixi.sh", "/install.sh"),
    Installer("pkgx", "pkgx.sh"),
    Installer("chezmoi", "get.chezmoi.io"),
    Installer("Wasmer", "get.wasmer.io"),
    Installer("Wasmtime", "wasmtime.dev", "/install.sh"),
    Installer("just", "just.systems", "/install.sh"),
    Installer("Doppler", "cli.doppler.com", "/install.sh"),
    Installer("Heroku CLI", "cli-assets.heroku.com", "/install.sh"),
    Installer("Sentry CLI", "sentry.io", "/get-cli/"),
    Installer("OpenCode", "opencode.ai", "/install"),
    Installer("Cursor CLI", "cursor.com", "/install"),
    Installer("Zed", "zed.dev", "/install.sh"),
    Installer("Atuin", "setup.atuin.sh"),
    Installer("Coder", "coder.com", "/install.sh"),
    Installer("Encore", "encore.dev", "/install.sh"),
    Installer("Istio", "istio.io", "/downloadistio"),
    Installer("Railway CLI", "railway.com", "/install.sh"),
    Installer("Railway CLI", "railway.app", "/install.sh"),
)


# Package registries' credential files, which publish scripts read for the token, and each registry's domains:
# the token in ~/.npmrc going to registry.npmjs.org is `npm publish` working, going anywhere else its theft.
# Cloud and code hosts are left out on purpose: their SDKs read their files themselves, and their hosts also
# store whatever is sent (a bucket, a gist), so a credential file sent there is still the file leaving.
CREDENTIAL_FILE_SERVICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (".npmrc", ("npmjs.org", "npmjs.com")),
    (".pypirc", ("pypi.org",)),
    (".docker/config.json", ("docker.io", "docker.com")),
    (".cargo/credentials", ("crates.io",)),
    (".gem/credentials", ("rubygems.org",)),
)


# Programs a command line reaches the network with, by how. The shell reader, the line rules, the prose rules and
# the card's declared tools all read these groups, so a program added here is a network program everywhere.
DOWNLOADERS = ("curl", "wget", "aria2c")
HTTPIE = ("http", "https", "xh", "httpie")  # HTTPie's commands: `http` and `https` are ordinary words in prose
RAW_SOCKETS = ("nc", "ncat", "netcat", "socat", "telnet", "websocat")
FILE_TRANSFER = ("scp", "sftp", "ftp", "tftp", "rsync")
POWERSHELL_WEB = ("invoke-webrequest", "invoke-restmethod", "iwr", "irm")
MAIL_PROGRAMS = ("sendmail", "mailx", "swaks")
NAME_LOOKUPS = ("dig", "nslookup", "ping")  # a lookup carries data out in the name it asks for
TUNNELS = ("ngrok", "cloudflared", "ssh", "grpcurl")
# The ones that carry what their arguments name (a file, a body) to another machine.
SENDING_PROGRAMS = frozenset(DOWNLOADERS + HTTPIE + RAW_SOCKETS + FILE_TRANSFER + POWERSHELL_WEB + MAIL_PROGRAMS)
NETWORK_PROGRAMS = frozenset(
    DOWNLOADERS + HTTPIE + RAW_SOCKETS + FILE_TRANSFER + POWERSHELL_WEB + MAIL_PROGRAMS + NAME_LOOKUPS + TUNNELS
)


def program_pattern(*groups: tuple[str, ...]) -> str:
    """A regex alternation of the programs of `groups` as words, `\\b(?:invoke-webrequest|...|nc)\\b`, the longest
    first, so a name is never cut short by a shorter one it starts with."""
    names = sorted({name for group in groups for name in group}, key=lambda name: (-len(name), name))
    return r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b"


def owned_by_service(path: str, host: str) -> bool:
    """Is `path` a credential file of the service that runs `host`? (CREDENTIAL_FILE_SERVICES)"""
    domain = registrable(host.lower())
    return any(marker in path and domain in domains for marker, domains in CREDENTIAL_FILE_SERVICES)


def url_host(url: str) -> str | None:
    """The host of a URL, lower-cased, without port or trailing dot; None when it has none."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.rstrip(".").lower() if host else None


def host_of(url: str) -> str:
    """The host of a URL or of a bare host name ("api.example.com/x"), as url_host gives it; "" when none."""
    text = url.strip()
    return url_host(text if "://" in text else "//" + text) or ""


def public_ip(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return address.is_global and not address.is_multicast


_HOST_KINDS = {domain: kind for kind, domains in SUSPICIOUS_HOSTS.items() for domain in domains}


def _under(host: str, domains: Iterable[str]) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in domains)


@functools.lru_cache(maxsize=4096)
def host_kind(host: str | None) -> str | None:
    """Why a host has no accountable owner ('a raw IP address', 'a paste site', ...), or None."""
    if not host:
        return None
    if public_ip(host):
        return RAW_IP
    labels = host.split(".")
    for index in range(len(labels) - 1):
        kind = _HOST_KINDS.get(".".join(labels[index:]))
        if kind:
            return kind
    return None


def free_hosting(host: str | None) -> bool:
    return bool(host) and _under(host, FREE_HOSTING)


def metadata_endpoint(host: str | None) -> bool:
    return bool(host) and host.strip("[]") in METADATA_HOSTS


def known_registry(host: str | None) -> str | None:
    """Which PACKAGE_REGISTRIES entry a registry host is ("npm", "PyPI", ...), or None; AWS CodeArtifact too."""
    if not host:
        return None
    for kind, domains in PACKAGE_REGISTRIES.items():
        if _under(host, domains):
            return kind
    if ".codeartifact." in host and host.endswith(".amazonaws.com"):
        return "hosted registry services"
    return None


def geolocation_service(host: str | None) -> bool:
    return bool(host) and _under(host, GEOLOCATION_HOSTS)


def registrable(host: str) -> str:
    """The last two labels (three under a two-letter second level like co.uk): what an owner registers."""
    labels = host.split(".")
    if len(labels) <= 2 or host.replace(".", "").isdigit() or ":" in host:
        return host
    if len(labels[-1]) == 2 and labels[-2] in ("co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"):
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def vendor_installer(url: str, own_sites: Iterable[str] = ()) -> str | None:
    """Whose own installer an HTTPS `url` is: a well-known installer's vendor, "the skill's own site", or None.

    `own_sites` are the skill's homepage and repository URLs: a tool's skill that installs the tool from
    the tool's own domain (or, for a GitHub repository, from that owner's raw files or releases) is the
    vendor installing its own program. Plain HTTP is never a vendor installer: anyone on the path can
    swap what it returns.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    host = (parts.hostname or "").rstrip(".").lower()
    if parts.scheme.lower() != "https" or not host or host_kind(host):
        return None
    path = parts.path.lower()
    for installer in WELL_KNOWN_INSTALLERS:
        if host == installer.host and path.startswith(installer.path):
            return installer.vendor
    for site in own_sites:
        if _same_owner(host, path, site):
            return "the skill's own site"
    return None


_GITHUB_FILES = ("raw.githubusercontent.com", "objects.githubusercontent.com")


def same_owner(url: str, own_sites: Iterable[str]) -> bool:
    """Does `url` come from the skill's own site or repository owner (its homepage, its GitHub account)?"""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = (parts.hostname or "").rstrip(".").lower()
    return bool(host) and any(_same_owner(host, parts.path.lower(), site) for site in own_sites)


# Led by a look-ahead for the characters every match starts with, so the engine skips to them instead of trying
# both branches at every position: the same matches for a third of the cost (most units read are split).
_SENTENCE_END = re.compile(r"(?=[.!?。！？])(?:[.!?]+[\"'”’)\]*_]*(?=\s|$)|[。！？]+[\"'”’)\]*_」』]*)")


def sentences(text: str) -> list[tuple[int, str]]:
    """(start, sentence) of each sentence of one line of prose, ending punctuation kept (CJK included).

    A full stop inside a URL or a number is followed by no space, so it does not end a sentence; the CJK
    full stops need none.
    """
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        out.append((start, text[start : match.end()]))
        start = match.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return out


def _same_owner(host: str, path: str, site: str) -> bool:
    try:
        parts = urlsplit(site if "://" in site else f"https://{site}")
    except ValueError:
        return False
    site_host = (parts.hostname or "").rstrip(".").lower()
    if not site_host or public_ip(site_host) or host_kind(site_host):
        return False
    if site_host in ("github.com", "www.github.com"):
        owner = parts.path.strip("/").split("/", 1)[0].lower()
        if not owner:
            return False
        if host in _GITHUB_FILES:
            return path.startswith(f"/{owner}/")
        return host == "github.com" and path.startswith(f"/{owner}/")
    if free_hosting(site_host) or site_host in _GITHUB_FILES:
        return host == site_host  # a free subdomain owns itself, not its neighbours
    return registrable(host) == registrable(site_host)
