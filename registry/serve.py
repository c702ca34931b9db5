"""A local static server that answers like the production host.

Headers come from the repository's netlify.toml (one source for production and local runs),
so local previews and browser tests see the same Content-Security-Policy, content types and
CORS as the deployed site. The listen backlog is large because the `skills` CLI fetches every
skill at once.
"""

from __future__ import annotations

import errno
import functools
import http.server
import re
import signal
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from registry.config import NETLIFY_TOML

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


def load_header_rules(netlify_toml: Path = NETLIFY_TOML) -> list[tuple[re.Pattern, dict[str, str]]]:
    """netlify.toml [[headers]] as (path pattern, headers); `*` matches any run of characters."""
    if not netlify_toml.is_file():
        return []
    config = tomllib.loads(netlify_toml.read_text(encoding="utf-8"))
    rules = []
    for block in config.get("headers", []):
        pattern = "^" + ".*".join(re.escape(part) for part in block["for"].split("*")) + "$"
        rules.append((re.compile(pattern), {k: str(v) for k, v in block.get("values", {}).items()}))
    return rules


def headers_for(path: str, rules: list[tuple[re.Pattern, dict[str, str]]]) -> dict[str, str]:
    """Later, more specific rules override earlier ones, header by header."""
    merged: dict[str, str] = {}
    for pattern, values in rules:
        if pattern.match(path):
            merged.update(values)
    return merged


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **CONTENT_TYPES,
        "": "application/octet-stream",
    }

    def __init__(self, *args, header_rules=(), **kwargs):
        self.header_rules = list(header_rules)
        super().__init__(*args, **kwargs)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-type":
            override = headers_for(self.path.split("?", 1)[0], self.header_rules).get("Content-Type")
            if override:
                value = override
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        for keyword, value in headers_for(self.path.split("?", 1)[0], self.header_rules).items():
            if keyword.lower() != "content-type":
                super().send_header(keyword, value)
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

    def handle_error(self, request, client_address) -> None:
        # A client that went away mid-answer (a browser tab closed, a fetch timed out) is not an error worth a
        # traceback in the author's terminal; anything else still gets one.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(site: Path, bind: str, port: int) -> SiteServer:
    handler = functools.partial(SiteHandler, directory=str(site), header_rules=load_header_rules())
    return SiteServer((bind, port), handler)


class PortUnavailable(Exception):
    """The server cannot listen where it was asked to; the message says what to pass instead."""


def open_server(site: Path, bind: str, port: int) -> SiteServer:
    """A server listening on bind:port, or PortUnavailable with a one-line reason and the option to change."""
    try:
        return make_server(site, bind, port)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise PortUnavailable(
                f"port {port} on {bind} is already in use; serve on another one with --port {_next_port(port)}"
            ) from err
        if err.errno == errno.EACCES:
            raise PortUnavailable(
                f"no permission to listen on port {port}; use a port above 1023, e.g. --port 8000"
            ) from err
        reason = err.strerror or str(err)
        raise PortUnavailable(f"cannot listen on {bind}:{port} ({reason}); check --bind and --port") from err


def _next_port(port: int) -> int:
    return port + 1 if port < 65535 else 8000


def serve_site(server: SiteServer, rebuild: Callable[[set[str]], None] | None = None,
               watched: list[Path] | None = None) -> None:  # fmt: skip
    """Serve until Ctrl+C (or SIGTERM); with `rebuild`, watch `watched` and rebuild on every change.

    The build swaps the new site in atomically, so a reader never sees a half-built site.

    Stopping does not rely on KeyboardInterrupt reaching this function: Python drops an exception
    raised while a finaliser runs ("Exception ignored in ..."), so an interrupt that lands there would
    be lost and the server would run on. The signal sets `stop` instead, which the watcher checks every
    100 ms; only during a rebuild does it also raise KeyboardInterrupt, to end the build at once (were
    that exception lost, the build would finish and the loop would still see `stop`). Such a dropped
    interrupt is not printed either: Python would show it as a traceback although nothing went wrong.
    """
    import watchfiles

    stop = _Flag()  # set by the signal handler, read by the watcher (watchfiles asks `stop_event.is_set()`)
    rebuilding = _Flag()

    def on_signal(signum, frame) -> None:
        stop.value = True
        if rebuilding.value:
            rebuilding.value = False  # once: a second signal during the same unwinding must not raise again
            raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    previous_hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_quiet_interrupts, previous_hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        if rebuild is None or not watched:
            while not stop.value:
                time.sleep(0.1)
        else:
            changes_seen = watchfiles.watch(*watched, debounce=300, step=100, stop_event=stop, raise_interrupt=False)
            for changes in changes_seen:
                if stop.value:
                    break
                rebuilding.value = True
                try:
                    rebuild({path for _, path in changes})
                finally:
                    rebuilding.value = False
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.unraisablehook = previous_hook
        server.shutdown()
        server.server_close()


def _quiet_interrupts(previous: Callable[[Any], object], unraisable: Any) -> None:
    """sys.unraisablehook while serving: an interrupt dropped in a finaliser has set `stop` already; say nothing."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        return
    previous(unraisable)


class _Flag:
    """A bool the signal handler sets. Not a threading.Event: setting one takes a lock, and a handler runs in
    the main thread between any two bytecodes, possibly while that thread holds the same lock."""

    def __init__(self) -> None:
        self.value = False

    def is_set(self) -> bool:
        return self.value
