"""A local static server that answers like the production host: same content types, CORS on the
machine-readable files, a real 404 page, and a listen backlog large enough for the `skills` CLI,
which fetches every skill at once."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path
from typing import ClassVar

CONTENT_TYPES = {
    ".md": "text/markdown; charset=utf-8",
    ".json": "application/json",
    ".gz": "application/gzip",
    ".tgz": "application/gzip",
    ".zip": "application/zip",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **CONTENT_TYPES,
        "": "text/plain",
    }

    def end_headers(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.endswith(".json") or "/.well-known/" in path or path.startswith("/raw/"):
            self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, format: str, *args) -> None:
        return


class SiteServer(http.server.ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


def make_server(site: Path, bind: str, port: int) -> SiteServer:
    handler = functools.partial(SiteHandler, directory=str(site))
    return SiteServer((bind, port), handler)


def serve_site(site: Path, bind: str, port: int) -> None:
    server = make_server(site, bind, port)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
