"""Where everything lives on the site. Pages link relatively, so the site works under any base path
and straight from disk; index.json and the sitemap use absolute URLs built from --base-url."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote


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
    def raw_file(skill_id: str, path: str) -> str:
        return f"raw/{skill_id}/{quote(path)}"

    @staticmethod
    def raw_file_path(skill_id: str, path: str) -> str:
        return f"raw/{skill_id}/{path}"

    @staticmethod
    def root_from(page_file: str) -> str:
        """The relative prefix that leads from a page back to the site root."""
        return "../" * page_file.count("/")
