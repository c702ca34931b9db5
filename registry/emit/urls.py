"""Where everything lives on the site. Pages link relatively, so the site works under any base path
and straight from disk; index.json and the sitemap use absolute URLs built from --base-url.

Every published file of a skill is served from exactly one place, its home (FileHomes): every
page, index.json, the capability card and `_redirects` ask FileHomes for a file's address, and
the site holds one copy of its bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

from registry.discovery import v1_path_ok

V1_DIR = ".well-known/skills"  # the v0.1 discovery layout: older `skills` CLIs fetch {base}/V1_DIR/{name}/{file}
V2_DIR = ".well-known/agent-skills"  # the v0.2 discovery layout, at the site root and below each skill page
RAW_DIR = "raw"


@dataclass(frozen=True)
class SiteUrls:
    base_url: str  # absolute, ending in '/'

    def absolute(self, relative: str) -> str:
        return self.base_url + relative

    @staticmethod
    def skill_page(skill_id: str) -> str:
        return f"skills/{skill_id}/"

    @staticmethod
    def skill_page_file(skill_id: str) -> str:
        return f"skills/{skill_id}/index.html"

    @staticmethod
    def skill_index_file(skill_id: str) -> str:
        """The skill's own v0.2 discovery index: the `skills` CLI (1.7) reads only this one for the page's URL."""
        return f"skills/{skill_id}/{V2_DIR}/index.json"

    @staticmethod
    def root_from(page_file: str) -> str:
        """The relative prefix that leads from a page back to the site root."""
        return "../" * page_file.count("/")


@dataclass(frozen=True)
class FileHomes:
    """Where each of one skill's files is served, the one place its bytes are written.

    A file the v0.1 discovery layout lists (the skill has a discovery name and the path passes
    `v1_path_ok`) lives at `.well-known/skills/<name>/<path>`: older `skills` CLIs build that URL
    themselves, so it cannot move. Every other file lives at `raw/<id>/<path>`. A path the skill does
    not serve gets the raw address too (a body link to it points where it would be, and finds nothing).
    """

    skill_id: str
    discovery_name: str | None
    files: frozenset[str]  # every path the skill serves
    listed: frozenset[str]  # of them, those the v0.1 layout lists: they live under .well-known/skills/

    @classmethod
    def of(cls, skill_id: str, discovery_name: str | None, paths: Iterable[str]) -> FileHomes:
        files = frozenset(paths)
        listed = frozenset(path for path in files if v1_path_ok(path)) if discovery_name is not None else frozenset()
        return cls(skill_id, discovery_name, files, listed)

    def path(self, path: str) -> str:
        """Where the file is written, relative to the site root."""
        if path in self.listed:
            return f"{V1_DIR}/{self.discovery_name}/{path}"
        return f"{RAW_DIR}/{self.skill_id}/{path}"

    def url(self, path: str) -> str:
        """The file's URL relative to the site root (SiteUrls.absolute makes it absolute)."""
        return quote(self.path(path))

    def moved_from(self, old_id: str) -> list[tuple[str, str]]:
        """Where the `raw/<old_id>/...` URLs of this skill's former id lead now: (from, to) redirect patterns
        relative to the site root, most specific first (a host takes the first that matches); `*` in
        `from` is carried to `:splat` in `to`. A file that lives under raw/ keeps its path there; when
        the skill is listed in the v0.1 layout, everything else follows to `.well-known/skills/<name>/`."""
        if not self.listed:
            return [(f"{RAW_DIR}/{old_id}/*", f"{RAW_DIR}/{self.skill_id}/:splat")]
        rules = [(f"{RAW_DIR}/{old_id}/{quote(path)}", self.url(path)) for path in sorted(self.files - self.listed)]
        return [*rules, (f"{RAW_DIR}/{old_id}/*", f"{V1_DIR}/{self.discovery_name}/:splat")]
