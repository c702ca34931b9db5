"""Highlighted code kept by content (registry/emit/highlight.py): the same bytes, with Pygments run once per block."""

import shutil
import sqlite3

import pytest
from conftest import REPO_ROOT
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from registry.emit import highlight as highlight_module
from registry.emit.highlight import HighlightCache, key_of
from registry.emit.html import make_environment
from registry.emit.markdown import MAX_HIGHLIGHT_BYTES, LinkContext, make_renderer, render
from registry.emit.urls import FileHomes

LINKS = LinkContext("../../../", FileHomes.of("p/s", None, {"SKILL.md"}))
BODIES = [
    "# Setup\n\n```python\nimport os\nprint(os.environ['HOME'])\n```\n\n```sh\ncurl -fsSL https://x.example | sh\n```\n",
    "Shared block:\n\n```python\nimport os\nprint(os.environ['HOME'])\n```\n\n```json\n{\"a\": [1, 2]}\n```\n",
    "```PYTHON\nimport os\nprint(os.environ['HOME'])\n```\n\n```py\nimport os\nprint(os.environ['HOME'])\n```\n",
    "```bash\n" + "echo hello\n" * (MAX_HIGHLIGHT_BYTES // 11 + 10) + "```\n\n```js\nconst a = 1;\n```\n",
]


@pytest.fixture
def pygments_calls(monkeypatch):
    calls = []
    real = highlight_module.pygments_highlight

    def counted(code, lexer, formatter):
        calls.append((type(lexer).__name__, code))
        return real(code, lexer, formatter)

    monkeypatch.setattr(highlight_module, "pygments_highlight", counted)
    return calls


def rendered(renderer) -> list[str]:
    return [render(renderer, body, LINKS) for body in BODIES]


def test_the_cache_changes_no_byte(tmp_path):
    uncached = rendered(make_renderer(HighlightCache(memory_bytes=0)))
    cold = rendered(make_renderer(HighlightCache(tmp_path / "highlight.sqlite")))
    warm = rendered(make_renderer(HighlightCache(tmp_path / "highlight.sqlite")))
    assert uncached == cold == warm
    assert '<span class="kn">import</span>' in cold[0]


def test_a_block_shared_by_many_bodies_is_highlighted_once(pygments_calls):
    renderer = make_renderer()
    for _ in range(3):
        rendered(renderer)
    # The python block appears four times per round (python, PYTHON and py name one lexer), three rounds.
    assert sorted(set(pygments_calls)) == sorted(pygments_calls)
    assert sum(1 for name, _ in pygments_calls if name == "PythonLexer") == 1
    assert renderer.highlights.hits >= 11


def test_the_file_is_shared_across_renderers_and_builds(tmp_path, pygments_calls):
    path = tmp_path / "cache" / "highlight.sqlite"
    first = make_renderer(HighlightCache(path))
    before = rendered(first)
    lexed = len(pygments_calls)
    assert lexed > 0 and path.exists()
    second = make_renderer(HighlightCache(path))  # another worker, or the next build
    assert rendered(second) == before
    assert len(pygments_calls) == lexed and second.highlights.misses == 0


def test_a_block_past_the_bound_is_neither_highlighted_nor_kept(tmp_path, pygments_calls):
    renderer = make_renderer(HighlightCache(tmp_path / "highlight.sqlite"))
    out = rendered(renderer)[3]
    assert out.count("<pre>") == 2 and "echo hello" in out.split("<pre>")[1] and "<span" not in out.split("<pre>")[1]
    assert all(len(code) <= MAX_HIGHLIGHT_BYTES for _, code in pygments_calls)


def test_the_key_names_the_lexer_and_the_pygments_version(monkeypatch):
    code = "x = 1\n"
    python, ruby = get_lexer_by_name("python"), get_lexer_by_name("ruby")
    assert key_of(python, code) != key_of(ruby, code)
    assert key_of(python, code) == key_of(get_lexer_by_name("py"), code)
    before = key_of(python, code)
    monkeypatch.setattr(highlight_module.pygments, "__version__", "0.0.0")
    assert key_of(python, code) != before


@pytest.mark.parametrize("damage", ["garbage", "wrong table", "directory"])
def test_a_damaged_file_is_left_alone(tmp_path, damage):
    path = tmp_path / "highlight.sqlite"
    if damage == "garbage":
        path.write_bytes(b"not a database\0" * 100)
    elif damage == "wrong table":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE blocks (key INTEGER)")
    else:
        path.mkdir()
    expected = rendered(make_renderer(HighlightCache(memory_bytes=0)))
    assert rendered(make_renderer(HighlightCache(path))) == expected


def test_a_wrong_entry_is_what_is_served_so_keys_must_be_exact(tmp_path):
    """The file is trusted as the build's own: a key is a digest of everything the HTML depends on."""
    path = tmp_path / "highlight.sqlite"
    cache = HighlightCache(path)
    lexer = get_lexer_by_name("python")
    html = cache.highlight("x = 1\n", lexer, HtmlFormatter(nowrap=True))
    cache.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT html FROM blocks WHERE key = ?", (key_of(lexer, "x = 1\n"),)).fetchone() == (html,)


def test_the_file_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(highlight_module, "MAX_ENTRIES", 8)
    path = tmp_path / "highlight.sqlite"
    lexer, formatter = get_lexer_by_name("python"), HtmlFormatter(nowrap=True)
    cache = HighlightCache(path)
    for number in range(20):
        cache.highlight(f"x = {number}\n", lexer, formatter)
    cache.close()
    HighlightCache(path).highlight("y = 1\n", lexer, formatter)  # opening prunes
    with sqlite3.connect(path) as db:
        rows = [key for (key,) in db.execute("SELECT key FROM blocks ORDER BY rowid")]
    assert len(rows) <= 8 and key_of(lexer, "x = 19\n") in rows and key_of(lexer, "x = 0\n") not in rows


def test_memory_is_bounded():
    lexer, formatter = get_lexer_by_name("python"), HtmlFormatter(nowrap=True)
    cache = HighlightCache(memory_bytes=2_000)
    for number in range(200):
        cache.highlight(f"value_{number} = {number}\n", lexer, formatter)
    assert cache._held <= 2_000 and len(cache._memory) < 200


def test_a_file_deleted_under_the_process_is_made_again(tmp_path):
    """A `--clean` build empties the cache folder while a process (serve, a test run) keeps its renderer."""
    path = tmp_path / "cache" / "highlight.sqlite"
    lexer, formatter = get_lexer_by_name("python"), HtmlFormatter(nowrap=True)
    cache = HighlightCache(path)
    cache.highlight("a = 1\n", lexer, formatter)
    cache.flush()
    shutil.rmtree(path.parent)
    cache.highlight("b = 2\n", lexer, formatter)
    cache.flush()
    with sqlite3.connect(path) as db:
        assert [key for (key,) in db.execute("SELECT key FROM blocks")] == [key_of(lexer, "b = 2\n")]


def test_compiled_templates_survive_their_folder_being_deleted(tmp_path):
    env = make_environment(REPO_ROOT / "templates", tmp_path / "cache")
    env.get_template("help.html")
    assert list((tmp_path / "cache").glob("templates-*/__jinja2_*.cache"))
    shutil.rmtree(tmp_path / "cache")
    env.cache.clear()  # as after a template was edited: compiled again, and written again
    env.get_template("help.html")
    assert list((tmp_path / "cache").glob("templates-*/__jinja2_*.cache"))


def test_a_poisoned_entry_is_still_sanitised(tmp_path):
    """What the file gives goes into the body before nh3, like Pygments' own output: no entry can add markup
    the sanitiser refuses, whoever wrote the cache folder."""
    path = tmp_path / "highlight.sqlite"
    body = "```python\nx = 1\n```\n"
    render(make_renderer(HighlightCache(path)), body, LINKS)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE blocks SET html = ?", ("<script>alert(1)</script><img src=x onerror=alert(2)>x = 1",))
    out = render(make_renderer(HighlightCache(path)), body, LINKS)
    assert "<script" not in out and "onerror" not in out and "x = 1" in out
