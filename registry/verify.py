"""`skill-registry verify TARGET`: does what a user holds match, byte for byte, what the registry signed?

TARGET is one of:
- a site: its URL (`https://…/`) or a built site's folder (it holds index.json). Checks the signatures of
  index.json and the two discovery indexes, every skill's signature and every file it lists (at the address
  index.json gives), every v0.2 archive against the digest the signed discovery index gives, and, for a folder,
  the files no signature lists in a skill's folders (added).
- an installed skill folder (such as ~/.claude/skills/<name>) or a downloaded archive (`<name>.tar.gz` from
  the discovery layout, or a `.zip`): found in the site given by --site (or SKILL_REGISTRY_SITE) by its name
  (the discovery name, the skill's name, or the last part of its id; the folder's or the archive's name, then
  the name SKILL.md's frontmatter gives), and compared with the files its signature lists.

The public key is the one --key names, else the site's (`signing.key_url` in index.json). A key given with
--key must be the one index.json names. Every problem is one line; `Report.ok` is True when there is none.
"""

from __future__ import annotations

import json
import os
import tarfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from registry.emit.signatures import signature_path
from registry.emit.urls import RAW_DIR, V1_DIR, V2_DIR
from registry.signing import PUBLIC_KEY_PATH, SIGNED_INDEXES, SignatureError, Verifier, key_id, sha256_hex

SITE_ENV = "SKILL_REGISTRY_SITE"
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")
IGNORED_NAMES = frozenset({".DS_Store"})  # what a file manager adds to any folder it shows


class VerifyError(Exception):
    """The target cannot be checked at all (no site, no index.json, an unsigned site...)."""


@dataclass
class Report:
    checked: int = 0  # files compared
    problems: list[str] = field(default_factory=list)
    skill: str | None = None  # the skill a local copy was found to be (verify_local)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, kind: str, where: str, detail: str = "") -> None:
        self.problems.append(f"{kind}: {where}" + (f" ({detail})" if detail else ""))


class Site:
    """A built site, read from a folder or over HTTP, by path relative to its root."""

    def __init__(self, location: str):
        self.location = location
        self.remote = location.startswith(("http://", "https://"))
        if self.remote:
            self.base = location if location.endswith("/") else location + "/"
        else:
            self.root = Path(location).expanduser()
            if not (self.root / "index.json").is_file():
                raise VerifyError(f"{location} is not a built site (no index.json)")
        self._index: dict | None = None

    def read(self, relative: str) -> bytes | None:
        """The file's bytes; None when the site has no such file."""
        if self.remote:
            url = self.base + urllib.parse.quote(relative, safe="/%")
            try:
                with urllib.request.urlopen(url, timeout=60) as response:
                    return response.read()
            except urllib.error.HTTPError as err:
                if err.code == 404:
                    return None
                raise VerifyError(f"{url}: HTTP {err.code}") from err
            except urllib.error.URLError as err:
                raise VerifyError(f"{url}: {err.reason}") from err
        path = self.root.joinpath(*urllib.parse.unquote(relative).split("/"))
        return path.read_bytes() if path.is_file() else None

    def relative(self, url: str) -> str:
        """An absolute URL index.json gives, as a path on this site (index.json's URLs use the build's base URL,
        which may not be where this copy is served)."""
        base = self.index["registry"]["url"]
        if not url.startswith(base):
            raise VerifyError(f"{url} is not under the registry's URL {base}")
        return url[len(base) :]

    @property
    def index(self) -> dict:
        if self._index is None:
            data = self.read("index.json")
            if data is None:
                raise VerifyError(f"{self.location} has no index.json")
            try:
                self._index = json.loads(data)
            except ValueError as err:
                raise VerifyError(f"{self.location}: index.json is not JSON: {err}") from err
        return self._index

    def skills(self) -> Iterator[dict]:
        index = self.index
        if "shards" not in index:
            yield from index.get("skills", [])
            return
        for shard in index["shards"]:
            relative = self.relative(shard["url"])
            data = self.read(relative)
            if data is None:
                raise VerifyError(f"missing index shard {relative}")
            yield from json.loads(data)["skills"]


def public_key(site: Site, key_file: Path | None) -> bytes:
    signing = site.index.get("signing")
    if not signing:
        raise VerifyError(f"{site.location} is not signed (index.json says signing: null)")
    if key_file is not None:
        pem = key_file.expanduser().read_bytes()
        if key_id(pem) != signing["key_id"]:
            raise VerifyError(f"the site is signed by key {signing['key_id']}, not by {key_file} ({key_id(pem)})")
        return pem
    pem = site.read(PUBLIC_KEY_PATH)
    if pem is None:
        raise VerifyError(f"{site.location} has no public key at {PUBLIC_KEY_PATH}")
    if key_id(pem) != signing["key_id"]:
        raise VerifyError(f"the public key at {PUBLIC_KEY_PATH} is not the key index.json names")
    return pem


def expected_files(site: Site, entry: dict, verifier: Verifier, report: Report) -> dict[str, str] | None:
    """What the skill's signature lists (path -> sha256 hex); None, with the problem reported, when it is not
    signed by the key or does not match index.json."""
    where = signature_path(entry["id"])
    data = site.read(where)
    if data is None:
        report.add("missing", where, "the skill's signature")
        return None
    try:
        files = verifier.signed_files(data)
    except SignatureError as err:
        report.add("bad signature", where, str(err))
        return None
    listed = {f["path"] for f in entry["files"]}
    if not set(files) <= listed:
        report.add("bad signature", where, f"it signs files index.json does not list for {entry['id']}")
        return None
    return files


def compare(expected: dict[str, str], actual: dict[str, bytes], label: str, report: Report) -> None:
    """Every difference between what was signed and what is there, one problem per file."""
    for path in sorted(expected):
        if path not in actual:
            report.add("missing", f"{label}{path}")
            continue
        report.checked += 1
        if sha256_hex(actual[path]) != expected[path]:
            report.add("differs", f"{label}{path}")
    for path in sorted(set(actual) - set(expected)):
        report.add("added", f"{label}{path}")


def verify_site(site: Site, key_file: Path | None = None) -> Report:
    report = Report()
    verifier = Verifier(public_key(site, key_file))
    verified: dict[str, bytes] = {}  # the indexes whose signature holds, and their bytes
    for index in SIGNED_INDEXES:
        data, signature = site.read(index), site.read(f"{index}.sig")
        if data is None and signature is None and index == f"{V1_DIR}/index.json":
            continue  # an optional output (registry.yaml `outputs:`): a site without it has neither file
        if data is None or signature is None:
            report.add("missing", index if data is None else f"{index}.sig")
            continue
        try:
            signed = verifier.signed_files(signature)
        except SignatureError as err:
            report.add("bad signature", f"{index}.sig", str(err))
            continue
        report.checked += 1
        if signed != {".": sha256_hex(data)}:
            report.add("differs", index)
        else:
            verified[index] = data
    for shard in site.index.get("shards", []) if "index.json" in verified else []:
        # index.json's signature covers each shard's digest
        _check_digest(site, site.relative(shard["url"]), shard["digest"], report)
    served: set[str] = set()  # every file a skill lists, as a path on the site
    folders: set[str] = set()  # the skills' own folders
    for entry in site.skills():
        files = expected_files(site, entry, verifier, report)
        if files is None:
            continue
        urls = {f["path"]: site.relative(f["url"]) for f in entry["files"]}
        actual = {}
        for path in files:
            data = site.read(urls[path])
            if data is not None:
                actual[path] = data
        compare(files, actual, f"{entry['id']}: ", report)
        served.update(urls.values())
        folders.update(_folders(entry))
    if not site.remote:
        for extra in _unlisted(site, folders, served):
            report.add("added", extra)
    if f"{V2_DIR}/index.json" in verified:
        _check_archives(site, json.loads(verified[f"{V2_DIR}/index.json"]), report)
    return report


def _folders(entry: dict) -> list[str]:
    """A skill's own folders on the site: raw/<id>/, and .well-known/skills/<name>/ when it has a discovery name."""
    folders = [f"{RAW_DIR}/{entry['id']}"]
    if entry.get("discovery_name"):
        folders.append(f"{V1_DIR}/{entry['discovery_name']}")
    return folders


def _unlisted(site: Site, folders: set[str], served: set[str]) -> list[str]:
    """Files in the skills' folders of a site folder that no skill lists (a skill's folder may hold another's)."""
    found = set()
    for folder in folders:
        root = site.root / folder
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            relative = path.relative_to(site.root).as_posix()
            if path.is_file() and urllib.parse.quote(relative) not in served and relative not in served:
                found.add(relative)
    return sorted(found)


def _check_archives(site: Site, discovery: dict, report: Report) -> None:
    """Every v0.2 artifact against the digest the discovery index gives (its signature checked)."""
    for artifact in discovery.get("skills", []):
        _check_digest(site, f"{V2_DIR}/{artifact['url']}", artifact["digest"], report)


def _check_digest(site: Site, relative: str, digest: str, report: Report) -> None:
    """One file of the site against the `sha256:<hex>` digest a signed index gives for it."""
    data = site.read(relative)
    if data is None:
        report.add("missing", relative)
        return
    report.checked += 1
    if "sha256:" + sha256_hex(data) != digest:
        report.add("differs", relative)


def read_folder(folder: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name not in IGNORED_NAMES:
            files[path.relative_to(folder).as_posix()] = path.read_bytes()
    return files


def read_archive(archive: Path) -> dict[str, bytes]:
    files = {}
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as handle:
            for info in handle.infolist():
                if not info.is_dir():
                    files[PurePosixPath(info.filename).as_posix().removeprefix("./")] = handle.read(info)
        return files
    with tarfile.open(archive, "r:*") as handle:
        for member in handle.getmembers():
            if member.isfile():
                extracted = handle.extractfile(member)
                if extracted is not None:
                    files[member.name.removeprefix("./")] = extracted.read()
    return files


def _frontmatter_name(skill_md: bytes | None) -> str | None:
    if not skill_md or not skill_md.startswith(b"---"):
        return None
    for line in skill_md.decode("utf-8", "replace").splitlines()[1:]:
        if line.strip() == "---":
            break
        if line.startswith("name:"):
            return line.removeprefix("name:").strip().strip("\"'") or None
    return None


def _matching(entry: dict, digests: set[str]) -> int:
    return sum(1 for f in entry["files"] if f["digest"].removeprefix("sha256:") in digests)


def find_entry(site: Site, names: list[str], files: dict[str, bytes]) -> dict:
    """The skill a local copy is of: by name, then (when several share it) by how many files match."""
    entries = list(site.skills())
    digests = {sha256_hex(data) for data in files.values()}
    for name in names:
        found = [
            e for e in entries if name in (e.get("discovery_name"), e.get("name"), e["id"].rsplit("/", 1)[-1])
        ] or [e for e in entries if e["id"] == name]
        if found:
            return max(found, key=lambda entry: _matching(entry, digests))
    raise VerifyError(f"no skill named {' or '.join(repr(n) for n in names)} in {site.location}")


def verify_local(target: Path, site: Site, key_file: Path | None = None) -> Report:
    """An installed skill folder or a downloaded archive against its skill's signature."""
    is_archive = target.is_file()
    files = read_archive(target) if is_archive else read_folder(target)
    stem = target.name
    for suffix in ARCHIVE_SUFFIXES:
        stem = stem.removesuffix(suffix)
    names = [n for n in (stem, _frontmatter_name(files.get("SKILL.md"))) if n]
    entry = find_entry(site, names, files)
    report = Report()
    verifier = Verifier(public_key(site, key_file))
    expected = expected_files(site, entry, verifier, report)
    if expected is not None:
        compare(expected, files, "", report)
    report.skill = entry["id"]
    return report


def verify(target: str, site_location: str | None = None, key_file: Path | None = None) -> Report:
    """Verify TARGET (see the module's docstring); raises VerifyError when it cannot be checked at all."""
    if target.startswith(("http://", "https://")):
        return verify_site(Site(target), key_file)
    path = Path(target).expanduser()
    if not path.exists():
        raise VerifyError(f"{target} does not exist")
    if path.is_dir() and (path / "index.json").is_file() and (path / V2_DIR).is_dir():
        return verify_site(Site(str(path)), key_file)
    location = site_location or os.environ.get(SITE_ENV)
    if not location:
        raise VerifyError(f"which registry is {target} from? pass --site URL-or-folder (or set {SITE_ENV})")
    if path.is_file() and not path.name.endswith(ARCHIVE_SUFFIXES):
        raise VerifyError(f"{target} is neither a folder nor an archive ({', '.join(ARCHIVE_SUFFIXES)})")
    return verify_local(path, Site(location), key_file)
