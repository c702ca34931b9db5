"""Risk analysis over the real-skill corpus and the registry's own skills-index.

Every high and critical verdict in the corpus was read by hand and is pinned below with why it
is true; a new high or critical verdict fails this test until someone reads it and pins it (or
fixes the false positive). The medium verdicts are pinned too, so a change of behaviour shows.
Nothing from the corpus is executed: the files are read as bytes and matched as text.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from registry.config import Limits
from registry.crawl import crawl, read_bytes
from registry.parse.skill import parse_skill
from registry.score.risk import claims
from registry.score.risk.assessment import LEVELS, RiskAssessment, assess

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
SKILLS_INDEX = REPO_ROOT / "skills-index"
LIMITS = Limits()

# skill id -> (level, rule codes), each read by hand.
PINNED: dict[str, tuple[str, set[str]]] = {
    # Medium (R006, issue 22's calibration): a vendor's own documented installer over HTTPS piped to a shell.
    # Homebrew's `/bin/bash -c "$(curl … raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"`, offered
    # after the user confirms.
    "claude-plugins-official/plugins/cwc-makers/skills/m5-onboard": ("medium", {"R006"}),
    # The skill's own CLI from its homepage: `curl -fsSL https://pinchwork.dev/install.sh | sh`.
    "clawhub-archive-sample/anneschuth/pinchwork": ("medium", {"R006"}),
    # Microsoft's `curl -sL https://aka.ms/InstallAzureCliLinux | bash` in SKILL.md and README.md.
    "clawhub-archive-sample/ddevaal/azure-cli": ("medium", {"R006"}),
    # NodeSource's `curl -fsSL https://deb.nodesource.com/setup_18.x | sudo -E bash -` in scripts/README.md.
    "clawhub-archive-sample/garrrikkotua/octolens": ("medium", {"R006"}),
    # Anthropic's `curl -fsSL https://claude.ai/install.sh | bash` in README.md; medium too: loads its own launchd
    # agent (QUICKSTART.md), in another file, so the persistence + download escalation does not apply.
    "clawhub-archive-sample/tunaissacoding/claude-oauth-refresher": ("medium", {"R006", "R042"}),
    # Medium: `cp … ~/Library/LaunchAgents/` and `launchctl load` install a token-refresh agent.
    "clawhub-archive-sample/tunaissacoding/claude-connect": ("medium", {"R042"}),
    # Medium: teaches `security find-generic-password … -w`, which prints keychain secrets.
    "clawhub-archive-sample/tunaissacoding/portable-tools": ("medium", {"R011"}),
    # Medium: registers with and serves its skill from http://100.29.245.213:3456, a raw public IP.
    "clawhub-archive-sample/0xmevdad/openswarm-fight-club": ("medium", {"R022"}),
    # Medium: `allowed-tools: Bash` with no command filter.
    "claude-plugins-official/plugins/example-plugin/skills/example-command": ("medium", {"R070"}),
    "clawhub-archive-sample/atlas-secint/insecure-defaults": ("medium", {"R070"}),
    # Medium (R130, read by hand): skills that run coding agents with their permission prompts off. multi-coding-agent
    # spawns `codex --yolo` and documents `claude -p --dangerously-skip-permissions`/`bypassPermissions`;
    # ralph-loop-writer writes loops around `claude-code --dangerously-skip-permissions`; claude-code-wingman says
    # "skip the approval prompts with `--auto`" and ships a CLAUDE.md saying "auto-approve all Bash commands
    # without asking". True: the user's confirmations are turned off (R105: undeclared programs, not mine).
    "clawhub-archive-sample/kesslerio/multi-coding-agent": ("medium", {"R105", "R130"}),
    "clawhub-archive-sample/walkamolee/ralph-loop-writer": ("medium", {"R130"}),
    "clawhub-archive-sample/yossiovadia/claude-code-wingman": ("medium", {"R105", "R130"}),
    # Medium (R131): "If the status check fails, don't mention it - just proceed": a failed check kept from the user.
    "clawhub-archive-sample/moclippa/gevety": ("medium", {"R131"}),
    # Low: gibb.eri.sh `network: true`.
    "gibb-eri-sh/summarize": ("low", {"R071"}),
    # -- card rules (R100-R119), each read by hand --
    # High (R113): Solana trading skills that hold the wallet: `read -s PRIVATE_KEY` turned into a keypair file
    # (~/.config/solana/recovered-wallet.json, line 116) and swap transactions POSTed to api.jup.ag (line 316),
    # with a hard-coded referral fee account: the skill can move the user's funds. (The typed-in PRIVATE_KEY
    # is a shell variable set by `read -s`, not an environment variable, so it is no undeclared env read.)
    # Low: solana, node, solana-keygen, spl-token run but missing from requires.bins (R105).
    "clawhub-archive-sample/0xterrybit/solana-trader": ("high", {"R105", "R113"}),
    "clawhub-archive-sample/0xterrybit/solana-trader-v2": ("high", {"R105", "R113"}),
    # High (R113): x402 payments: the client is built with `privateKey: process.env.WALLET_PRIVATE_KEY` and
    # pays any API that answers 402 (curl to the API, line 68): a wallet key in a skill that talks to the
    # network. Low: curl is used but requires.anyBins lists only node and npx (R105).
    "clawhub-archive-sample/0xterrybit/x402": ("high", {"R105", "R113"}),
    # Low (R105): programs run by the skill's commands but missing from the requires.bins it declares
    # (openssl for HMAC signatures, psql, redis-cli, curl in SETUP.md, the openclaw CLI, sudo-less helpers ...).
    "clawhub-archive-sample/0xterrybit/alchemy-pay": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/binance": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/binance-pay": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/bybit": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/moonpay": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/okx": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/postgres": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/redis": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/solana-pay": ("low", {"R105"}),
    "clawhub-archive-sample/0xterrybit/transak": ("low", {"R105"}),
    "clawhub-archive-sample/apollostreetcompany/clauditor": ("low", {"R105"}),
    "clawhub-archive-sample/emasoudy/council": ("low", {"R105"}),
    "clawhub-archive-sample/johntheyoung/comfy-cli": ("low", {"R105"}),
    "clawhub-archive-sample/kesslerio/activecampaign": ("low", {"R105"}),
    "clawhub-archive-sample/kesslerio/babyconnect": ("low", {"R105"}),
    "clawhub-archive-sample/kesslerio/fitbit-analytics": ("low", {"R105"}),
    "clawhub-archive-sample/kesslerio/lobster-jobs": ("low", {"R105"}),
    "clawhub-archive-sample/michaelgathara/youtube-watcher": ("low", {"R105"}),
    "clawhub-archive-sample/steamb23/naver-news": ("low", {"R105"}),
    "clawhub-archive-sample/vaguilera-jinko/plane": ("low", {"R105"}),
    "clawhub-archive-sample/yossiovadia/claude-code-wingman/clawdbot-skill": ("low", {"R105"}),
    "clawhub-archive-sample/andretuta/polymarket-agent": ("low", {"R105", "R114"}),
    "clawhub-archive-sample/kesslerio/oura-analytics": ("low", {"R105", "R114"}),
    # Low (R114): unpinned `pip install` / `npm install` / `npx` of packages named nowhere else in the skill
    # (pillow, pandas, esbuild, @modelcontextprotocol/inspector ...): true, and only worth a glance.
    "anthropics-skills/slack-gif-creator": ("low", {"R114"}),
    "claude-plugins-official/plugins/mcp-server-dev/skills/build-mcp-server": ("low", {"R114"}),
    "claude-plugins-official/plugins/mcp-server-dev/skills/build-mcpb": ("low", {"R114"}),
    "claude-plugins-official/plugins/plugin-dev/skills/hook-development": ("low", {"R114"}),
    "clawhub-archive-sample/alirezarezvani/senior-fullstack": ("low", {"R114"}),
    "clawhub-archive-sample/amoghpurohit/job-search-mcp": ("low", {"R114"}),
    "clawhub-archive-sample/amoghpurohit/job-search-mcp-skill": ("low", {"R114"}),
    "clawhub-archive-sample/baanish/putio": ("low", {"R114"}),
    "clawhub-archive-sample/cclank/news-aggregator-skill": ("low", {"R114"}),
    "clawhub-archive-sample/danbennettuk/voice-note-to-midi": ("low", {"R114"}),
    "clawhub-archive-sample/kesslerio/finance-news": ("low", {"R114"}),
    "clawhub-archive-sample/kesslerio/phone-agent": ("low", {"R114"}),
    "clawhub-archive-sample/poiley/whatisxlistening-to/skills/whatisxlistening-to": ("low", {"R114"}),
    "gibb-eri-sh/_extracted/06/super_summarizer": ("low", {"R114"}),
    # Low (R116): `bun install -g https://github.com/tobi/qmd`, a repository branch rather than a release.
    "clawhub-archive-sample/dpaluy/qmd-cli": ("low", {"R116"}),
    # Low (R119): package.json `postinstall: node install.mjs` runs code at install time.
    "wolffish-app/browser": ("low", {"R119"}),
    # Low (R160): Markdown paragraphs written as one 2,057-2,285-character line (read by hand: plain prose,
    # nothing hidden past the edge; true, and only worth a glance).
    "anthropics-skills/claude-api": ("low", {"R160"}),
    "claude-plugins-official/plugins/claude-security/skills/claude-security": ("low", {"R160"}),
    "openai-skills/curated/notion-knowledge-capture": ("low", {"R160"}),
}

# Skills of the registry itself whose frontmatter holds danger regexes that must never be read as commands.
DANGER_PATTERN_HOLDERS = (
    "registry-team/safe-shell-baseline",
    "acme-devtools/git-workflow-guard",
    "opsworks/log-triage",
)


def assess_tree(root: Path) -> tuple[dict[str, RiskAssessment], float]:
    results: dict[str, RiskAssessment] = {}
    elapsed = 0.0
    for location in crawl(root, LIMITS).locations:
        skill = parse_skill(location, LIMITS)
        contents = {f.path: read_bytes(f, LIMITS.file_bytes) for f in location.files}
        start = time.perf_counter()
        results[location.id] = assess(skill, contents)
        elapsed += time.perf_counter() - start
    return results, elapsed


@pytest.fixture(scope="module")
def corpus_results() -> tuple[dict[str, RiskAssessment], float]:
    assert CORPUS.is_dir(), f"the real-skill corpus is expected at {CORPUS}"
    return assess_tree(CORPUS)


def table(results: dict[str, RiskAssessment]) -> str:
    counts: dict[str, Counter] = defaultdict(Counter)
    for skill_id, result in results.items():
        counts[skill_id.split("/", 1)[0]][result.level] += 1
    width = max(len(source) for source in counts) + 2
    lines = [f"{'source':<{width}}" + "".join(f"{level:>10}" for level in LEVELS) + f"{'total':>8}"]
    for source in sorted(counts):
        row = counts[source]
        lines.append(
            f"{source:<{width}}" + "".join(f"{row[level]:>10}" for level in LEVELS) + f"{sum(row.values()):>8}"
        )
    total = Counter(result.level for result in results.values())
    lines.append(f"{'all':<{width}}" + "".join(f"{total[level]:>10}" for level in LEVELS) + f"{len(results):>8}")
    return "\n".join(lines)


def test_corpus_levels_table(corpus_results, capsys: pytest.CaptureFixture[str]) -> None:
    results, elapsed = corpus_results
    assert len(results) == 507
    with capsys.disabled():
        print(f"\n\nRisk levels of {len(results)} corpus skills (assess: {elapsed:.2f} s)\n{table(results)}\n")
        for skill_id, result in sorted(results.items()):
            if result.level in ("high", "critical"):
                print(f"{result.level:>8}  {skill_id}")
                for reason in result.reasons:
                    print(f"          {reason}")
    assert elapsed < 120, "risk analysis of the corpus should take seconds"


def test_reviewed_verdicts_are_pinned(corpus_results) -> None:
    results, _ = corpus_results
    found = {
        skill_id: (result.level, {f.code for f in result.findings})
        for skill_id, result in results.items()
        if result.findings
    }
    assert found == PINNED


def test_no_unreviewed_high_or_critical(corpus_results) -> None:
    results, _ = corpus_results
    risky = {skill_id for skill_id, r in results.items() if r.level in ("high", "critical")}
    assert risky <= {skill_id for skill_id, (level, _) in PINNED.items() if level in ("high", "critical")}


def test_every_corpus_finding_is_complete(corpus_results) -> None:
    results, _ = corpus_results
    for skill_id, result in results.items():
        assert result.level in LEVELS
        assert len(result.reasons) >= len({f.code for f in result.findings})
        for finding in result.findings:
            assert finding.path.startswith(skill_id.split("/", 1)[0] + "/"), (skill_id, finding.path)
            assert finding.message and finding.hint and finding.excerpt, (skill_id, finding)
            assert len(finding.excerpt) <= 120


def test_registry_skills_index_is_low_or_medium(capsys: pytest.CaptureFixture[str]) -> None:
    results, elapsed = assess_tree(SKILLS_INDEX)
    assert len(results) == 23
    with capsys.disabled():
        print(
            f"\n\nRisk levels of the {len(results)} skills-index skills (assess: {elapsed:.2f} s)\n{table(results)}\n"
        )
    assert all(result.level in ("low", "medium") for result in results.values()), {
        skill_id: result.reasons for skill_id, result in results.items() if result.level not in ("low", "medium")
    }
    for skill_id in DANGER_PATTERN_HOLDERS:
        assert (results[skill_id].level, results[skill_id].findings) == ("low", ()), (
            skill_id,
            results[skill_id].reasons,
        )


def test_no_finding_says_more_than_the_card(corpus_results) -> None:
    results, _ = corpus_results
    unbacked = [f"{skill_id}: {line}" for skill_id, risk in sorted(results.items()) for line in claims.unbacked(risk)]
    assert unbacked == []
