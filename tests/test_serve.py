"""`skill-registry serve`: production headers from netlify.toml, a real 404, and rebuilds on change."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from conftest import REPO_ROOT, simple_skill, write_skill

from registry.serve import headers_for, load_header_rules


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def test_header_rules_come_from_netlify_toml():
    rules = load_header_rules(REPO_ROOT / "netlify.toml")
    page = headers_for("/skills/a/b/", rules)
    assert "script-src 'self'" in page["Content-Security-Policy"] and page["X-Content-Type-Options"] == "nosniff"
    skill_md = headers_for("/.well-known/agent-skills/x/SKILL.md", rules)
    assert skill_md["Content-Type"] == "text/markdown; charset=utf-8" and skill_md["Access-Control-Allow-Origin"] == "*"
    assert "sandbox" in headers_for("/raw/a/b/assets/page.html", rules)["Content-Security-Policy"]


def test_serve_builds_serves_and_rebuilds_on_change(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "p/first", simple_skill("first"))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "registry.cli", "serve", "--source", str(source), "--out", str(tmp_path / "site"),
         "--port", str(port)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/"
    try:
        assert wait_for(lambda: fetch(base)[0] == 200), "the server did not start"
        status, headers, _ = fetch(base + "index.json")
        assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
        status, headers, body = fetch(base + "no/such/page")
        assert status == 404 and b"Page not found" in body
        write_skill(source, "p/second", simple_skill("second"))
        assert wait_for(lambda: fetch(base + "skills/p/second/")[0] == 200), "no rebuild after a change"
    finally:
        os.killpg(process.pid, signal.SIGINT)
        output = process.communicate(timeout=30)[0]
    assert "Changed:" in output and "rebuilding" in output
