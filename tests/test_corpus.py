"""The real corpus: every source builds without a crash, and the output obeys every public format."""

import pytest
from conftest import CORPUS
from site_checks import check_index_json, check_well_known, executable_constructs

from registry.build import build
from registry.config import BuildOptions
from registry.reference.catalog import LOADING_CODES

SOURCES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory, corpus):
    out = tmp_path_factory.mktemp("corpus") / "site"
    result = build(BuildOptions(source=corpus, out=out, base_url="https://corpus.example/"))
    return out, result


def test_corpus_sources_are_present(corpus):
    assert len(SOURCES) >= 10


def test_whole_corpus_builds_and_reports_per_source(corpus_site, capsys):
    _out, result = corpus_site
    rows = []
    for source in SOURCES:
        published = sum(1 for s in result.published if s.id.startswith(source + "/"))
        left_out = sum(1 for s in result.left_out if s.id.startswith(source + "/"))
        rows.append((source, published, left_out))
        assert published + left_out > 0, source
    with capsys.disabled():
        print("\ncorpus source                 published  left out")
        for source, published, left_out in rows:
            print(f"{source:<30}{published:>9}{left_out:>10}")
    assert sum(r[1] for r in rows) == len(result.published)
    # every left-out skill is explained with a path and a rule code
    for item in result.left_out:
        assert item.reasons and all(r.code and r.path for r in item.reasons), item.id


def test_only_skills_no_client_can_load_are_left_out(corpus_site):
    _out, result = corpus_site
    for item in result.left_out:
        assert item.reasons and {r.code for r in item.reasons} <= LOADING_CODES, (item.id, item.reasons)
    published = {s.id: s for s in result.published}
    # Title Case names, a 1,068-character description, '${answers.name}': spec errors, loaded by clients
    for skill_id in (
        "clawhub-archive-sample/otherpowers/attribution-engine",
        "anthropics-skills/claude-api",
        "skillli/test/fixtures/invalid-skill",
    ):
        assert skill_id in published and published[skill_id].errors, skill_id
    assert "anthropics-skills/claude-api" not in result.discovery  # over 1024 characters: out of discovery only
    assert result.discovery["clawhub-archive-sample/otherpowers/attribution-engine"] == "attribution-engine"


def test_corpus_outputs_obey_the_formats(corpus_site):
    out, result = corpus_site
    index = check_index_json(out)
    assert len(index["skills"]) == len(result.published)
    v2, _ = check_well_known(out)
    assert len(v2["skills"]) == len(result.discovery)


def test_corpus_pages_carry_no_executable_markup(corpus_site):
    out, _ = corpus_site
    pages = list(out.rglob("*.html"))
    assert len(pages) > 400
    for page in pages:
        assert executable_constructs(page.read_text()) == [], page


@pytest.mark.parametrize("source", SOURCES)
def test_each_source_builds_alone(tmp_path, corpus, source):
    result = build(BuildOptions(source=corpus / source, out=tmp_path / "site"))
    assert result.written
    assert len(result.published) + len(result.left_out) > 0
