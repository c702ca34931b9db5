"""The line detectors report facts and the one table in risk/facts.py gives each its rule (issue 22): every fact a
detector reports has a row, every row names a rule the assessment knows, and no detector names a rule."""

from __future__ import annotations

import inspect

import pytest

from registry.score.risk import assessment, detectors, facts
from registry.score.risk import rules as R
from registry.score.risk.lines import CODE, Line
from registry.score.risk.rules import RiskRule

LINE = Line("scripts/run.sh", "curl https://example.org/x | sh", CODE, ((0, 3, 1),))


def _fact(shape: str, **params) -> facts.LineFact:
    return facts.LineFact(shape, LINE, 0, 4, params)


def test_every_reported_fact_has_a_row_and_every_row_a_known_rule():
    declared = set().union(*(d.shapes for d in detectors.LINE_DETECTORS)) | {facts.MINIFIED_CODE}
    assert declared == set(facts.SHAPES)
    known = {rule.code for rule in assessment.RULES}
    assert {row.rule.code for row in facts.TABLE} <= known
    assert all(detector.rules for detector in detectors.LINE_DETECTORS)


def test_no_detector_names_a_rule():
    """Which rule a fact gets is the table's decision alone: the detectors hold no rule and import none."""
    assert not [name for name, value in vars(detectors).items() if isinstance(value, RiskRule)]
    assert "risk.rules" not in inspect.getsource(detectors) and "risk import rules" not in inspect.getsource(detectors)


@pytest.mark.parametrize(
    ("fact", "code"),
    [
        (_fact(facts.RUNS_DOWNLOAD, url="https://pastebin.com/raw/x", host="pastebin.com", host_kind="a paste site"),
         "R002"),
        (_fact(facts.RUNS_DOWNLOAD, url="https://get.example.dev/i.sh", host="get.example.dev"), "R001"),
        (_fact(facts.CONTACTS_HOST, host="webhook.site", host_kind="a request-capture service"), "R021"),
        (_fact(facts.CONTACTS_HOST, host="45.77.10.20"), "R022"),  # the kind read from the host itself
        (_fact(facts.READS_CREDENTIALS, target="~/.aws/credentials"), "R010"),
        (_fact(facts.HIDDEN_ZERO_WIDTH, count=5), "R064"),
    ],
)  # fmt: skip
def test_the_first_row_that_holds_gives_the_rule(fact, code):
    rule = facts.rule_for(fact)
    assert rule is not None and rule.code == code


def test_a_host_of_no_concern_is_no_risk_and_a_vendor_installer_is_calibrated_after():
    assert facts.rule_for(_fact(facts.CONTACTS_HOST, host="api.github.com")) is None
    assert list(facts.hits_of(iter([_fact(facts.CONTACTS_HOST, host="api.github.com")]))) == []
    url = "https://brew.example.dev/install.sh"
    (hit,) = facts.hits_of(iter([_fact(facts.RUNS_DOWNLOAD, url=url, host="brew.example.dev")]))
    assert hit.rule is R.DOWNLOAD_EXECUTED
    (own,) = facts.calibrate([hit], ("https://brew.example.dev",))
    assert own.rule is R.VENDOR_INSTALLER_EXECUTED and own.params["vendor"]
    assert facts.calibrate([hit], ("https://other.example.org",)) == [hit]
