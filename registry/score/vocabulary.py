"""The words the risk analysis reads by, defined once: hosts and what kind of owner they have, installers,
network programs, credential files, the agent's configuration files and what ends a sentence.

Every analyser (line rules, parsed code, prose, every byte, card rules) asks this module what a host
is, so a host cannot be a paste site for one rule and an ordinary name for another; the same goes for
a credential file, an agent's instruction file and the end of a sentence. Adding a host, an installer,
a credential file or an agent's file is a change to the tables below and nothing else; docs/risk.md
lists them.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

# `(?:https?|ftp)://[^\s'"`<>|;)\]}\\,]+` with IGNORECASE, written out: the same matches (IGNORECASE folds
# only 's' to a non-ASCII letter, 'ſ'), about twice as fast, since re skips to an h or f only when the pattern
# starts with case-sensitive letters.
_URL = r"(?:h[tT][tT][pP][sS\u017f]?|H[tT][tT][pP][sS\u017f]?|f[tT][pP]|F[tT][pP])://[^\s'\"`<>|;)\]}\\,]+"
URL = re.compile(_URL)

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


# -- credential stores ---------------------------------------------------------------------
# Where secrets live on a machine: one table for the line rules, which look for a credential file in a line of text
# (risk/detectors.py: R010, R011, R020), and the path classes, which class a path a parser or the prose names
# (code/classify.py: the card's "home-directory secret", "wallet", "browser profile"). Each reader adds its own
# anchors to a row's path, as its shape says; adding a credential file is adding a row.

# The card's class of a store, and what the card calls a path of it.
HOME_STORE = ("home-directory secret", "a home-directory secret")
WALLET_STORE = ("wallet", "a crypto wallet")
KEYSTORE = ("wallet", "a keystore")
BROWSER_STORE = ("browser profile", "a browser profile or cookie store")
SYSTEM_STORE = ("system", "a system file")

# How a row's path sits in a path, which decides the anchors each reader adds around it (P):
FILE = "file"  # a file (or folder) of that name: `(?:^|/)P$` as a path; `(?<![\w-])P(?!\w)` in a line
NAME_END = "name end"  # a file whose name or path ends so: `P$` as a path; `P(?!\w)` in a line
FOLDER = "folder"  # a folder and all in it: `(?:^|/)P(?:/|$)` as a path; in a line, the whole folder under the home
# directory (`tar czf keys.tgz ~/.ssh`)
PART = "part"  # anywhere in a path or a line: `P`
# A browser row that is a file (FILE, NAME_END) is a cookie or password store; the others name a browser's profile
# folder, which a line must name for a store in it to be read.


@dataclass(frozen=True)
class SecretPath:
    """A credential store: what reading it reads, its card class, its path and how that path is anchored."""

    label: str  # what reading it reads, as the line rules' findings say it
    kind: tuple[str, str]  # HOME_STORE, WALLET_STORE, KEYSTORE, BROWSER_STORE or SYSTEM_STORE
    path: str  # a regex of the path, without anchors (case-sensitive in a line, case-blind as a path)
    shape: str  # FILE, NAME_END, FOLDER or PART
    needle: str  # lower-case words ("|" between), one of which each match holds; "": only a path is classed by it
    example: str  # a path of it, which each reader must recognise (tests/score/test_vocabulary_once.py)


_BROWSER_SECRET = "browser cookies or saved passwords"
_NOT_CODE = r"(?![^/]*\.(?:py|js|mjs|cjs|ts|sh|md|rs|go|rb|java|html|css)$)"  # a file name that is not a script's
# The line rules report the rows with a needle, in this order (the first credential a line sends names the finding).
SECRET_PATHS: tuple[SecretPath, ...] = (
    SecretPath("an SSH private key", HOME_STORE, r"\.ssh/(?:id_[A-Za-z0-9_-]+|identity|\*)(?![\w.-]*\.pub)", NAME_END,
               ".ssh/", "~/.ssh/id_ed25519"),
    SecretPath("AWS credentials (~/.aws/credentials)", HOME_STORE, r"\.aws/credentials", NAME_END, ".aws/",
               "~/.aws/credentials"),
    SecretPath("Google Cloud credentials", HOME_STORE,
               r"\.config/gcloud/(?:credentials\.db|access_tokens\.db|application_default_credentials\.json"
               r"|legacy_credentials)", PART, "gcloud/", "~/.config/gcloud/application_default_credentials.json"),
    SecretPath("Azure CLI tokens", HOME_STORE, r"\.azure/(?:accessTokens\.json|msal_token_cache\.(?:json|bin))", PART,
               ".azure/", "~/.azure/msal_token_cache.json"),
    SecretPath("Docker registry credentials", HOME_STORE, r"\.docker/config\.json", NAME_END, ".docker/",
               "~/.docker/config.json"),
    SecretPath("stored git credentials", HOME_STORE, r"\.git-credentials", NAME_END, "git-credentials",
               "~/.git-credentials"),
    SecretPath("netrc passwords", HOME_STORE, r"[._]netrc", FILE, "netrc", "~/.netrc"),
    SecretPath("PyPI credentials", HOME_STORE, r"\.pypirc", NAME_END, "pypirc", "~/.pypirc"),
    SecretPath("GitHub CLI tokens", HOME_STORE, r"\.config/gh/hosts\.yml", NAME_END, "gh/hosts",
               "~/.config/gh/hosts.yml"),
    SecretPath("GnuPG private keys", HOME_STORE, r"\.gnupg/(?:private-keys-v1\.d|secring\.gpg)", PART, ".gnupg/",
               "~/.gnupg/private-keys-v1.d"),
    SecretPath("the system password hashes", SYSTEM_STORE, r"/etc/(?:shadow|gshadow|master\.passwd)", NAME_END, "/etc/",
               "/etc/shadow"),
    SecretPath("the pass password store", HOME_STORE, r"\.password-store", PART, "password-store", "~/.password-store"),
    SecretPath("a crypto wallet", WALLET_STORE, r"wallet\.dat", NAME_END, "wallet", "~/.bitcoin/wallet.dat"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.ethereum/keystore", PART, "keystore", "~/.ethereum/keystore"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.config/solana/id\.json", PART, "solana/",
               "~/.config/solana/id.json"),
    SecretPath("a crypto wallet", WALLET_STORE, r"Electrum/wallets", PART, "electrum", "~/.electrum/Electrum/wallets"),
    SecretPath("a crypto wallet", WALLET_STORE, r"exodus\.wallet", PART, "wallet",
               "~/Library/Application Support/Exodus/exodus.wallet"),
    SecretPath("a crypto wallet", WALLET_STORE, r"nkbihfbeogaeaoehlefnkodbefgpgknn", PART, "nkbihf",  # MetaMask
               "~/.config/google-chrome/Default/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.bitcoin/wallets", PART, "wallet", "~/.bitcoin/wallets"),
    SecretPath("the macOS keychain database", HOME_STORE, r"Library/Keychains/[\w.-]*\.keychain(?:-db)?", NAME_END,
               "keychains/", "~/Library/Keychains/login.keychain-db"),
    # Whole folders: archiving one from the home directory reads every key in it.
    SecretPath("the SSH folder", HOME_STORE,
               r"\.ssh(?!/[^\s'\"]*\.pub(?![\w.]))(?!/known_hosts)(?!/config(?![\w.-]))",  # not its public files
               FOLDER, ".ssh", "~/.ssh"),
    SecretPath("the AWS folder", HOME_STORE, r"\.aws", FOLDER, ".aws", "~/.aws"),
    SecretPath("the GnuPG folder", HOME_STORE, r"\.gnupg", FOLDER, ".gnupg", "~/.gnupg"),
    # Browsers: a cookie or password store is read from a line that also names a browser's profile folder.
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"Login Data", NAME_END, "login data",
               "~/.config/google-chrome/Default/Login Data"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"Web Data", NAME_END, "web data",
               "~/.config/chromium/Default/Web Data"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"Cookies", FILE, "cookies",
               "~/Library/Application Support/BraveSoftware/Brave-Browser/Default/Cookies"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"Local State", NAME_END, "local state",
               "~/Library/Application Support/Google/Chrome/Local State"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"cookies\.sqlite", NAME_END, "cookies",
               "~/.mozilla/firefox/abc.default/cookies.sqlite"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"logins\.json", NAME_END, "logins.json",
               "~/Library/Application Support/Firefox/Profiles/abc.default/logins.json"),
    SecretPath(_BROWSER_SECRET, BROWSER_STORE, r"key[34]\.db", NAME_END, "key3.db|key4.db",
               "~/.mozilla/firefox/abc.default/key4.db"),
    SecretPath("Chrome's profile", BROWSER_STORE, r"Google/Chrome|google-chrome|Chrome/User Data|Chrome\\User Data",
               PART, "chrome", "~/.config/google-chrome"),
    SecretPath("Chromium's profile", BROWSER_STORE, r"chromium", PART, "chromium", "~/.config/chromium"),
    SecretPath("Brave's profile", BROWSER_STORE, r"BraveSoftware", PART, "bravesoftware", "~/.config/BraveSoftware"),
    SecretPath("Edge's profile", BROWSER_STORE, r"Microsoft/Edge", PART, "microsoft/edge",
               "~/AppData/Local/Microsoft/Edge/User Data"),
    SecretPath("Edge's profile", BROWSER_STORE, r"Microsoft Edge(?=[/\\])", PART, "microsoft edge",  # not the app
               "~/Library/Application Support/Microsoft Edge/Default"),
    SecretPath("Firefox's profile", BROWSER_STORE, r"Mozilla/Firefox|\.mozilla/firefox|Firefox/Profiles", PART,
               "firefox", "~/.mozilla/firefox"),
    SecretPath("Opera's profile", BROWSER_STORE, r"Opera Software", PART, "opera software",
               "~/AppData/Roaming/Opera Software/Opera Stable"),
    SecretPath("Vivaldi's profile", BROWSER_STORE, r"Vivaldi", PART, "vivaldi", "~/.config/vivaldi"),
    # Only classed as paths (a parser's or the prose's): the line rules do not look for these in a line.
    SecretPath("an SSH private key", HOME_STORE, r"id_(?:rsa|dsa|ecdsa|ed25519)", FILE, "", "keys/id_rsa"),
    SecretPath("a .env file", HOME_STORE, r"\.env(?:\.[\w-]+)?", FILE, "", "app/.env.production"),
    SecretPath("a Kubernetes config", HOME_STORE, r"\.kube/config", NAME_END, "", "~/.kube/config"),
    SecretPath("the macOS keychains", HOME_STORE, r"Library/Keychains", PART, "", "~/Library/Keychains"),
    SecretPath("a keychain", HOME_STORE, r"\.keychain(?:-db)?", NAME_END, "", "backup/login.keychain"),
    SecretPath("Google Cloud's folder", HOME_STORE, r"\.config/gcloud", PART, "", "~/.config/gcloud"),
    SecretPath("the Azure CLI's folder", HOME_STORE, r"\.azure", FOLDER, "", "~/.azure/config"),
    SecretPath("npm credentials", HOME_STORE, r"\.npmrc", FILE, "", "~/.npmrc"),
    SecretPath("a Vault token", HOME_STORE, r"\.vault-token", NAME_END, "", "~/.vault-token"),
    SecretPath("a credentials file", HOME_STORE, r"credentials\.json", NAME_END, "", "service-credentials.json"),
    SecretPath("PostgreSQL passwords", HOME_STORE, r"\.pgpass", NAME_END, "", "~/.pgpass"),
    SecretPath("MySQL passwords", HOME_STORE, r"\.my\.cnf", NAME_END, "", "~/.my.cnf"),
    SecretPath("a private key", HOME_STORE, r"private[^/]*\.(?:pem|key)", NAME_END, "", "certs/private-key.pem"),
    SecretPath("a certificate with its key", HOME_STORE, r"\.(?:p12|pfx)", NAME_END, "", "certs/signing.p12"),
    SecretPath("a crypto wallet", WALLET_STORE, r"keystore", FOLDER, "", "~/.local/share/keystore"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.ethereum", FOLDER, "", "~/.ethereum/geth/nodekey"),
    SecretPath("a crypto wallet", WALLET_STORE, r"solana/id\.json", NAME_END, "", "/tmp/solana/id.json"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.config/solana", FOLDER, "", "~/.config/solana/cli/config.yml"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.electrum", FOLDER, "", "~/.electrum/config"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.bitcoin", FOLDER, "", "~/.bitcoin/bitcoin.conf"),
    SecretPath("a crypto wallet", WALLET_STORE, r"seed[-_ ]?phrase", PART, "", "backup/seed_phrase.txt"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.(?:keypair|wallet)\.json", NAME_END, "", "deploy.keypair.json"),
    SecretPath("a crypto wallet", WALLET_STORE, r"seeds?\.txt", FILE, "", "backup/seeds.txt"),
    SecretPath("a crypto wallet", WALLET_STORE, r"[^/]*mnemonic" + _NOT_CODE + r"[^/]*", FILE, "", "my-mnemonic.txt"),
    SecretPath("a crypto wallet", WALLET_STORE, r"recovery[-_ ]?phrase[^/]*", FILE, "", "vault/recovery-phrase.txt"),
    SecretPath("a crypto wallet", WALLET_STORE, r"\.wallet", NAME_END, "", "backup/main.wallet"),
    SecretPath("a crypto wallet", WALLET_STORE,  # wallet apps' data folders
               r"MetaMask|Phantom|Exodus|Electrum|Coinomi|Guarda|Ledger Live|Trust Wallet|Rabby", FOLDER, "",
               "~/Library/Application Support/Exodus"),
    SecretPath("a crypto wallet", WALLET_STORE,  # browser wallet extensions by id: Phantom, Coinbase, TronLink ...
               r"bfnaelmomeimhlpmgjnjophhpkkoljpa|hnfanknocfeofbddgcijnmhnfnkdnaad|ibnejdfjmmkpcnlpebklmnkoeoihofec"
               r"|egjidjbpglichdcondbcbdnbeeppgdph|acmacodkjbdgmoleebolmdjonilkdbch|fhbohimaelbohpjbbldcngcnapndodjp",
               PART, "", "Local Extension Settings/bfnaelmomeimhlpmgjnjophhpkkoljpa"),
    SecretPath("a crypto wallet", WALLET_STORE, r"UTC--[^/]+", FILE, "",
               "keys/UTC--2024-01-01T00-00-00.000Z--0123456789abcdef"),
    SecretPath("a keystore", KEYSTORE, r"\.keystore", NAME_END, "", "android/release.keystore"),
)  # fmt: skip


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


# -- the agent's own configuration ---------------------------------------------------------
# Names are matched case-blind, each where a path segment starts. The path classes (code/classify.py), the prose
# rule on writing the agent's configuration (instructions/agent_config.py) and the writes into it that turn its
# safety off or plant instructions (families/agent_config.py) all build their patterns from these groups.

# Files an agent reads as standing instructions at the start of every session, by name.
AGENT_INSTRUCTION_FILES = (
    "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md", "copilot-instructions.md", ".cursorrules",
    ".windsurfrules", ".clinerules", ".roorules", ".goosehints",
)  # fmt: skip
# Agents' home folders (in the home directory or a project) ...
AGENT_FOLDERS = (".claude", ".codex", ".gemini", ".cursor")
# ... those whose every file is the agent's configuration (Cursor's also holds a project's own files) ...
WHOLE_AGENT_FOLDERS = (".claude", ".codex", ".gemini")
# ... of which the folder itself is too: listing or creating `.claude/` is read as the agent's configuration, a bare
# `.codex` or `.gemini` (`mkdir -p ~/.codex` before writing its config.toml) is not ...
BARE_AGENT_FOLDERS = (".claude",)
# ... and the folders in each that hold instructions: rules, read at every session like CLAUDE.md, and custom
# commands and subagents, read when invoked.
AGENT_RULES_FOLDER = "rules"
AGENT_INSTRUCTION_FOLDERS = ("commands", "agents", AGENT_RULES_FOLDER)
# Copilot's prompt and instruction files, by suffix. A project's own templates use these names too, so the path
# alone is not the agent's configuration; text written into one is read as instructions.
AGENT_INSTRUCTION_SUFFIXES = (".instructions.md", ".prompt.md", ".chatmode.md")
# Agents' settings files, where their permission grants live: by name inside an agent's folder, or by path.
AGENT_SETTINGS_NAMES = ("settings.json", "settings.local.json")
AGENT_SETTINGS_FILES = (".claude.json", ".codex/config.toml")
# Agents' MCP server lists: by name inside an agent's folder, by path, and the key of Codex's MCP server table
# wherever a path or key names it.
AGENT_MCP_NAMES = ("mcp.json",)
AGENT_MCP_FILES = (".mcp.json", "claude_desktop_config.json", ".cursor/mcp.json")
MCP_SERVERS_KEY = "mcp_servers"
# Agents' hooks, inside an agent's folder: a hooks.json, or any file in a hooks/ folder.
AGENT_HOOKS_FILE, AGENT_HOOKS_FOLDER = "hooks.json", "hooks"
# Other agents' configuration, by the start of its path: Continue's config.json or config.yaml, aider's
# .aider.conf.yml.
AGENT_CONFIG_PREFIXES = (".continue/config", ".aider")
# Agents whose folder (`.<agent>/skills/`) holds the installed skills; `.skills/` is shared.
SKILL_FOLDER_AGENTS = (
    "claude", "codex", "cursor", "agent", "agents", "gemini", "opencode", "windsurf", "openclaw", "clawdbot",
    "moltbot", "clawd", "goose", "continue", "roo", "cline", "kiro", "amp", "copilot", "github",
)  # fmt: skip
SHARED_SKILL_FOLDER = ".skills"
# Folders of agents the path classes leave out, because projects keep their own specs and workflows there too:
# text written into a Markdown file in one is read as instructions, a JSON file in one as the agent's settings.
OTHER_AGENT_FOLDERS = (".windsurf", ".roo", ".kiro", ".amazonq", ".clinerules")  # Cline's rules may be a folder
# Editors' settings files, which can hold MCP servers and the approval settings of the agent inside the editor.
# Kept apart from the agent's own configuration: a skill that edits .vscode/settings.json is usually setting up
# the editor, so writing one is not a persistence point; only a setting that turns the agent's approvals off is
# read there (R250).
EDITOR_SETTINGS_FILES = (
    ".vscode/settings.json", ".vscode/mcp.json", "Code/User/settings.json", "Code/User/mcp.json",
    "Code - Insiders/User/settings.json", "Code - Insiders/User/mcp.json", "mcp_config.json", "cline_mcp_settings.json",
)  # fmt: skip
EDITOR_SETTINGS_FOLDERS = (".zed",)  # every JSON file in them


def names_pattern(names: Iterable[str]) -> str:
    """A regex alternation of literal names, the longest first (so none is cut short by another it starts with)."""
    ordered = sorted(dict.fromkeys(names), key=lambda name: (-len(name), name))
    return "(?:" + "|".join(re.escape(name) for name in ordered) + ")"


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


# -- sentences -------------------------------------------------------------------------------

# What ends a sentence, for every reader that splits prose: a run of full stops, question or exclamation marks
# followed by a space or the end of the text (a full stop inside a URL, a number or a file name is followed by
# none), or a run of the CJK ones, which need no space. Closing quotes, brackets and Markdown emphasis right after
# the marks belong to the sentence they close.
SENTENCE_MARKS = ".!?"
CJK_SENTENCE_MARKS = "。！？"
SENTENCE_CLOSERS = "\"'”’)]*_"
CJK_SENTENCE_CLOSERS = SENTENCE_CLOSERS + "」』"
# What a line break does, by reader: nothing (prose read one line or one joined paragraph at a time), end a
# sentence at every line break (with the spaces around it), or end one at a blank line only.
NO_BREAKS, LINE_BREAKS, PARAGRAPH_BREAKS = "", "line", "paragraph"
# (what a break starts with, the break): a line break with the spaces around it (`[^\S\n]*\n\s*` finds what
# `\s*\n\s*` finds, without backtracking over every space that is not followed by one), or a blank line.
_BREAKS = {NO_BREAKS: ("", ""), LINE_BREAKS: (r"\s", r"[^\S\n]*\n\s*"), PARAGRAPH_BREAKS: (r"\n", r"\n\s*\n")}


@functools.cache
def sentence_end(breaks: str = NO_BREAKS) -> re.Pattern[str]:
    """The pattern of a sentence's end (the marks and their closers; a line break too, as `breaks` says).

    Led by a look-ahead for the characters every match starts with, so the engine skips to them instead of
    trying each branch at every position: the same matches for a third of the cost (most units read are split).
    """
    first, branch = _BREAKS[breaks]

    def chars(text: str) -> str:
        return "".join(re.escape(char) for char in text)

    marks = (
        rf"[{chars(SENTENCE_MARKS)}]+[{chars(SENTENCE_CLOSERS)}]*(?=\s|$)"
        rf"|[{chars(CJK_SENTENCE_MARKS)}]+[{chars(CJK_SENTENCE_CLOSERS)}]*"
    )
    lead = chars(SENTENCE_MARKS + CJK_SENTENCE_MARKS) + first
    return re.compile(rf"(?=[{lead}])(?:{marks}{'|' + branch if branch else ''})")


_SENTENCE_END = sentence_end()


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
