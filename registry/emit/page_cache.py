"""Site-wide pages carried over from the last build when nothing they show changed.

A listing page (browse, category, publisher, tag: every page in every order) shows its slice of cards and a
few numbers around them. Its key is a digest of everything its template reads: the code fingerprint, the site's
settings, the page's file, its title and navigation, and each card it shows. When the last build wrote a page
under the same key and the site still holds those bytes, the page is kept without being rendered; an edit to
one skill then renders again only the pages that show it (or whose navigation or counts changed), not the
thousands of pages a large registry has.
"""

from __future__ import annotations

from collections.abc import Iterable

from registry.emit.output import SiteOutput
from registry.emit.writer import SiteWriter
from registry.state import BuildState, key_of

KIND = "page"  # the build state's entries: page key -> sha256 of the page's bytes


class PageCache:
    def __init__(self, state: BuildState, code: str, writer: SiteWriter):
        self.state = state
        self.code = code
        self.writer = writer if isinstance(writer, SiteOutput) else None  # only a site output can keep a file
        self._used: list[str] = []
        self._fresh: list[tuple[str, bytes]] = []
        self.kept = 0
        self.rendered = 0

    def key(self, *parts: object) -> str:
        return key_of(KIND, self.code, *parts)

    def known(self, keys: Iterable[str]) -> dict[str, str]:
        """The page digests the last build recorded under `keys` (one query for a listing's pages)."""
        return {key: value.decode("ascii") for key, value in self.state.get_many(KIND, keys).items()}

    def keep(self, key: str, page_file: str, digest: str | None) -> bool:
        """Use the last build's page for `key`; False when there is none or the site no longer holds it."""
        self._used.append(key)
        if digest is None or self.writer is None or not self.writer.keep(page_file, digest):
            return False
        self.kept += 1
        return True

    def record(self, key: str, page_file: str) -> None:
        """Remember the page just written under `key`, by the digest the site output took of its bytes."""
        self.rendered += 1
        if self.writer is not None:
            self._fresh.append((key, self.writer.desired[page_file].encode("ascii")))

    def finish(self) -> None:
        """Save the pages rendered now and forget those no page used."""
        self.state.put_many(KIND, self._fresh)
        self.state.keep_only(KIND, self._used)
        self._fresh = []
