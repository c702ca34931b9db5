"""What a finding claims the skill does, held against the capability card: a finding never says more than the card.

A finding's values (`RiskAssessment.claims`) name things: the host it says data goes to or code comes
from, the whole environment it says is dumped, the credential file it says is read. Each of those is a
fact some analyser must have put on the card, where people and agents read it; a finding that names a
host the card does not list, or says "the whole environment" while the card lists no environment
read, contradicts the card. `unbacked` lists those contradictions; the tests run it over the real corpus
and every labelled case, so an analyser that reports without recording fails them.
"""

from __future__ import annotations

import re

from registry.score.card import ENV, HOST, PATH
from registry.score.risk import assessment
from registry.score.risk.assessment import RiskAssessment
from registry.score.vocabulary import url_host

_HOST_NAME = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$|^\d{1,3}(?:\.\d{1,3}){3}$")
_HOST_KEYS = ("host", "where")
_WHOLE_ENVIRONMENT = "whole environment"
_READS_FILES = frozenset(rule.code for rule in assessment.RULES if rule.category == "credentials")
_SECRET_PATH = re.compile(r"^(?:~|\$HOME|/)\S*/\.?[\w.-]+$")


def claimed_hosts(params: dict[str, str]) -> set[str]:
    hosts = {params[key].strip().lower() for key in _HOST_KEYS if _HOST_NAME.match(params.get(key, "").strip().lower())}
    url = params.get("url", "")
    host = url_host(url) if "://" in url else None
    return hosts | ({host} if host else set())


def unbacked(risk: RiskAssessment) -> list[str]:
    """'<code> <path>:<line>: names X, which the card does not show' for each finding that says more than the card.

    A `target` is checked as a file read for the credential rules only; elsewhere it is a program run or a
    place written, which other kinds of use record.
    """
    card = risk.card
    claims = {finding: dict(params) for finding, params in risk.claims}
    hosts = {use.value for use in card.uses if use.kind == HOST}
    reads_environment = any(use.kind == ENV for use in card.uses)
    paths = {use.value for use in card.uses if use.kind == PATH}
    out = []
    for finding in risk.findings:
        params = claims.get(finding, {})
        where = f"{finding.code} {finding.path}:{finding.line or ''}"
        for host in sorted(claimed_hosts(params) - hosts):
            out.append(f"{where}: names the host {host}, which the card does not list")
        if not reads_environment and any(_WHOLE_ENVIRONMENT in value for value in params.values()):
            out.append(f"{where}: says the whole environment is read, and the card lists no environment read")
        target = params.get("target", "")
        if (
            finding.code in _READS_FILES
            and _SECRET_PATH.match(target)
            and not any(target in path or path in target for path in paths)
        ):
            out.append(f"{where}: names the file {target}, which the card does not list")
    return out
