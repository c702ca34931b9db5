"""`skill-registry serve`: production headers from netlify.toml, a real 404, and rebuilds on change."""

import os
import random
import signal
import socket
import subprocess
import sys
import threading
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


def test_ctrl_c_stops_serve_at_any_point_of_a_rebuild(tmp_path):
    """Ctrl+C ends `serve` promptly wherever it lands: before, during and after a rebuild that uses the worker
    processes, with the CPU busy. Interrupt points are spread over the measured rebuild time, with jitter."""
    source = tmp_path / "src"
    count = 60  # above registry.workers.MIN_PARALLEL: the rebuild runs in worker processes

    def write_all(version: int) -> None:
        for index in range(count):
            body = f"Version {version} of skill {index}. " * 20
            write_skill(source, f"p/s{index:02d}", simple_skill(f"s{index:02d}", body=body))

    write_all(0)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(max(2, os.cpu_count() or 2))]
    rng = random.Random(23)
    rebuild_seconds = 1.0  # replaced by the first rebuild's own time
    rounds = 10
    try:
        for round_number in range(rounds):
            lines: list[tuple[float, str]] = []
            process = subprocess.Popen(
                [sys.executable, "-m", "registry.cli", "serve", "--source", str(source), "--out",
                 str(tmp_path / "site"), "--port", "0"],
                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
            )  # fmt: skip
            reader = threading.Thread(target=_collect, args=(process, lines), daemon=True)
            reader.start()
            try:
                assert _wait_line(lines, "Serving", 120), "serve did not start:\n" + _shown(lines)
                write_all(round_number + 1)
                assert _wait_line(lines, "rebuilding", 60), "no rebuild after a change:\n" + _shown(lines)
                started = next(at for at, text in lines if "rebuilding" in text)
                point = (round_number + rng.random()) / rounds * 1.3 * rebuild_seconds  # a few land after it ends
                time.sleep(max(0.0, started + point - time.monotonic()))
            finally:
                os.killpg(process.pid, signal.SIGINT)
                stopped = time.monotonic()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                raise AssertionError(
                    f"round {round_number}: serve ran on 20 s after Ctrl+C:\n{_shown(lines)}"
                ) from None
            reader.join(timeout=10)
            took = time.monotonic() - stopped
            output = _shown(lines)
            assert process.returncode == 0, f"round {round_number}: exit {process.returncode}\n{output}"
            assert "Traceback" not in output, f"round {round_number}:\n{output}"
            assert took < 20
            finished = [at for at, text in lines if " published, " in text and at > started]
            if round_number == 0 and finished:
                rebuild_seconds = finished[0] - started
            assert (tmp_path / "site" / "index.html").is_file(), "Ctrl+C left no site behind"
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def _collect(process: subprocess.Popen, lines: list[tuple[float, str]]) -> None:
    for text in process.stdout:
        lines.append((time.monotonic(), text.rstrip("\n")))


def _wait_line(lines: list[tuple[float, str]], needle: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(needle in text for _, text in list(lines)):
            return True
        time.sleep(0.02)
    return False


def _shown(lines: list[tuple[float, str]]) -> str:
    return "\n".join(text for _, text in list(lines))[-4000:]


def test_an_interrupt_dropped_in_a_finaliser_while_serving_is_not_reported(tmp_path, monkeypatch):
    """Python drops a KeyboardInterrupt raised while a finaliser runs and prints it as a traceback; `serve` has
    already set its stop flag when that happens, so the traceback says nothing true. Other exceptions dropped
    there still reach the hook that was in place (here a recorder, standing for Python's printer)."""
    from registry import serve as serving

    class Dropped:
        def __init__(self, error: BaseException):
            self.error = error

        def __del__(self):
            raise self.error

    reported: list[type] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_type))
    server = serving.make_server(tmp_path, "127.0.0.1", 0)

    def wait(seconds: float) -> None:  # serve's loop: its first wait drops both, then Ctrl+C arrives
        Dropped(KeyboardInterrupt())
        Dropped(ValueError("kept"))
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(serving.time, "sleep", wait)
    serving.serve_site(server)
    assert reported == [ValueError]
    assert sys.unraisablehook is not None and sys.unraisablehook.__name__ == "<lambda>"  # given back
