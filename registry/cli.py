"""The `skill-registry` command: thin wrappers that parse options, call a stage, print."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from registry import __version__
from registry.config import DEFAULT_OUT, DEFAULT_SOURCE, BuildOptions
from registry.model import Finding, Severity
from registry.output import BuildLocked
from registry.policy import PolicyError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skill-registry")
def main() -> None:
    """Build and check a static registry of agent skills."""


@main.command()
@click.option(
    "--source",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=DEFAULT_SOURCE,
    show_default="skills-index/",
    help="Folder (or git checkout) holding the skills.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Where the site is written (swapped in atomically when complete).",
)
@click.option(
    "--base-url",
    default="http://localhost:8000/",
    show_default=True,
    help="Absolute URL the site is served from (used in index.json, sitemap.xml, install commands).",
)
@click.option("--strict", is_flag=True, help="Any error fails the build (exit 1) and the site is not replaced.")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="Write every finding as JSON here.")
@click.option(
    "--policy",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="registry.yaml to use (default: beside the source, or at its git repository's root).",
)
@click.option("--title", default="Skill Registry", show_default=True, help="Site title.")
@click.option("--clean", is_flag=True, help="Ignore the incremental build state (.<out>.cache) and rebuild everything.")
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1), help="Worker processes for reading and rendering [default: cores]."
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line.")
def build(
    source: Path, out: Path, base_url: str, strict: bool, report: Path | None, policy: Path | None, title: str,
    clean: bool, jobs: int | None, quiet: bool,
) -> None:  # fmt: skip
    """Build the site, index.json and .well-known layouts from a tree of skills.

    Builds are incremental: what did not change since the last build into the same --out is
    reused from the build state beside it, and a build that changes nothing writes nothing.
    The output is byte-for-byte what --clean would give.
    """
    from registry.summary import print_build_summary, progress_reporter

    options = BuildOptions(
        source=source, out=out, base_url=base_url, strict=strict, report=report, policy=policy, title=title,
        clean=clean, jobs=jobs,
    )  # fmt: skip
    with progress_reporter(enabled=not quiet) as progress:
        try:
            from registry.build import build as run_build

            result = run_build(options, progress)
        except BuildLocked as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(1)
        except PolicyError as err:
            click.echo(f"error: {err.path} is not a valid policy:", err=True)
            for problem in err.problems:
                click.echo(f"  {problem}", err=True)
            sys.exit(1)
    print_build_summary(result, quiet=quiet)
    if strict and result.error_count:
        sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="sarif: a SARIF 2.1.0 log for GitHub code scanning (upload it with github/codeql-action/upload-sarif).",
)
@click.option("--strict", is_flag=True, help="Warnings also fail (exit 1).")
def validate(paths: tuple[Path, ...], output_format: str, strict: bool) -> None:
    """Check skills: a skill folder, a SKILL.md, or a tree of skills.

    Runs what a build checks before publishing: reading, layout, every dialect, registry-wide rules,
    and the static risk analysis of each skill's files (risk findings are warnings or notes).

    Exit status: 0 without errors, 1 with errors (or warnings with --strict), 2 for usage errors.
    """
    from registry import report
    from registry.checker import check_paths

    missing = [p for p in paths if not p.exists()]
    if missing:
        click.echo(f"error: no such file or directory: {missing[0]}", err=True)
        sys.exit(2)
    checked = check_paths(list(paths), score=True)
    findings: list[Finding] = checked.findings
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    if output_format == "json":
        click.echo(report.json_document(checked.skill_summaries, findings))
    elif output_format == "sarif":
        from registry.sarif import sarif_json

        status = 1 if any(f.severity in failing for f in findings) else 0
        click.echo(sarif_json(findings, folders=checked.folders, exit_code=status))
    else:
        for finding in findings:
            click.echo(report.github_line(finding) if output_format == "github" else report.text_line(finding))
        summary = report.summary_line(len(checked.skill_summaries), findings)
        click.echo(summary if output_format == "text" else f"::notice title=skill-registry::{summary}")
    if not checked.skill_summaries and not findings:
        click.echo("error: no SKILL.md found under the given paths", err=True)
        sys.exit(2)
    sys.exit(1 if any(f.severity in failing for f in findings) else 0)


@main.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--write", is_flag=True, help="Write the checksum into SKILL.md's frontmatter.")
def checksum(path: Path, write: bool) -> None:
    """Print (or write) the content digest of a skill folder (see docs/checksums.md)."""
    from registry import checksum as checksums
    from registry.checker import check_paths

    folder = path.parent if path.is_file() else path
    checked = check_paths([folder])
    skill = next((s for s in checked.skills if s.location.folder.resolve() == folder.resolve()), None)
    if skill is None:
        click.echo(f"error: no SKILL.md in {folder}", err=True)
        sys.exit(2)
    if write:
        target = skill.location.folder / skill.location.skill_md
        try:
            updated = checksums.write_checksum(target.read_bytes(), skill.content_digest)
        except (ValueError, UnicodeDecodeError) as err:
            click.echo(f"error: {target}: {err}", err=True)
            sys.exit(1)
        target.write_bytes(updated)
        click.echo(f"{skill.content_digest}  written to {target}")
    else:
        click.echo(skill.content_digest)


@main.command()
def rules() -> None:
    """Print every rule with its code, severity, example and fix (Markdown)."""
    from registry.rules.catalog import markdown_table

    click.echo(markdown_table(), nl=False)


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("docs"), show_default=True)
def docs(out: Path) -> None:
    """Regenerate the reference pages made from code: rules.md, policy.md and risk.md."""
    from registry.policy import policy_markdown
    from registry.rules.catalog import markdown_table
    from registry.score.risk_docs import risk_markdown

    out.mkdir(parents=True, exist_ok=True)
    (out / "rules.md").write_text(markdown_table(), encoding="utf-8")
    (out / "policy.md").write_text(policy_markdown(), encoding="utf-8")
    (out / "risk.md").write_text(risk_markdown(), encoding="utf-8")
    click.echo(f"wrote {out / 'rules.md'}, {out / 'policy.md'} and {out / 'risk.md'}")


@main.command("check-pr")
@click.option("--base", required=True, help="The commit the pull request targets (e.g. origin/main or a sha).")
@click.option("--head", default="HEAD", show_default=True, help="The pull request's commit.")
@click.option("--actor", help="GitHub login of the author; checked against namespace owners in registry.yaml.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github", "markdown"]),
    default="text",
    show_default=True,
)
@click.option(
    "--source", default="skills-index", show_default=True, help="Skills folder, relative to the repository root."
)
@click.option(
    "--repo", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("."), show_default=True
)
def check_pr(base: str, head: str, actor: str | None, output_format: str, source: str, repo: Path) -> None:
    """Check a pull request: exit 0 when it can be merged, 1 when it cannot (2 for usage errors)."""
    from registry import pr
    from registry import report as reports

    try:
        result = pr.check_pull_request(repo, base, head, actor, source)
    except ValueError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    if output_format == "json":
        click.echo(pr.as_json(result))
    elif output_format == "markdown":
        click.echo(pr.as_markdown(result))
    else:
        for change in result.changes:
            if output_format == "text":
                version = pr._version_change(change)
                click.echo(f"{change.verdict.upper():8} {change.kind:8} {change.id}  {version}  ", nl=False)
                click.echo(f"tier {change.tier}, risk {change.risk}")
        for finding in result.findings():
            if finding.severity is Severity.INFO:
                continue
            click.echo(reports.github_line(finding) if output_format == "github" else "  " + reports.text_line(finding))
        verdict = "can be merged" if result.mergeable else "cannot be merged"
        summary = f"{len(result.changes)} skill change(s); the pull request {verdict}"
        click.echo(summary if output_format == "text" else f"::notice title=skill-registry::{summary}")
    sys.exit(0 if result.mergeable else 1)


@main.command()
@click.argument("query")
@click.option(
    "--site",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="A built site (its search index is kept in .<site>.cache/ beside it).",
)
@click.option("--category", help="Only this category.")
@click.option("--trust", type=click.Choice(["official", "verified", "community"]), help="Only this trust tier.")
@click.option("--risk", type=click.Choice(["low", "medium", "high", "critical"]), help="Only this risk level.")
@click.option("--dialect", help="Only skills using this dialect (e.g. skillli, wolffish).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200))
@click.option("--json", "as_json", is_flag=True, help="Stable JSON for agents and scripts.")
def search(
    query: str, site: Path, category: str | None, trust: str | None, risk: str | None, dialect: str | None,
    limit: int, as_json: bool,
) -> None:  # fmt: skip
    """Search a built site's skills, ranked as the site ranks them."""
    from registry.build import search_cache
    from registry.search.present import print_results, results_json
    from registry.search.query import Filters
    from registry.search.query import search as run_search

    index_dir = search_cache(site) / "whoosh"
    if not index_dir.is_dir():
        click.echo(f"error: {site} has no search index; run `skill-registry build --out {site}` first", err=True)
        sys.exit(2)
    ranked = run_search(index_dir, query, Filters(category, trust, dialect, risk), limit)
    if as_json:
        click.echo(results_json(query, ranked))
    else:
        print_results(query, ranked)


@main.command()
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--source",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=DEFAULT_SOURCE,
    show_default="skills-index/",
)
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True)
@click.option("--no-build", is_flag=True, help="Serve the existing --out folder as it is.")
@click.option("--no-watch", is_flag=True, help="Do not rebuild when the source changes.")
@click.option("--bind", default="127.0.0.1", show_default=True)
def serve(port: int, source: Path, out: Path, no_build: bool, no_watch: bool, bind: str) -> None:
    """Build the site, serve it locally as production would, and rebuild whenever a skill changes."""
    from registry.build import build as run_build
    from registry.config import PROJECT_ROOT
    from registry.serve import serve_site
    from registry.summary import print_build_summary

    base_url = f"http://{'localhost' if bind in ('127.0.0.1', '0.0.0.0') else bind}:{port}/"
    options = BuildOptions(source=source, out=out, base_url=base_url)

    def rebuild(changed: set[str]) -> None:
        if changed:
            shown = sorted(os.path.relpath(p) for p in changed)
            click.echo(f"Changed: {', '.join(shown[:8])}{' …' if len(shown) > 8 else ''}; rebuilding")
        try:
            print_build_summary(run_build(options), quiet=True)
        except (PolicyError, BuildLocked, OSError, ValueError) as err:
            click.echo(f"Build failed, still serving the previous site: {err}", err=True)

    if not no_build:
        rebuild(set())
    if not out.is_dir():
        click.echo(f"error: {out} does not exist; run `skill-registry build` first", err=True)
        sys.exit(2)
    from registry.policy import find_policy

    candidates = (source, PROJECT_ROOT / "templates", PROJECT_ROOT / "static", find_policy(source))
    watched = [] if no_watch else [p for p in candidates if p is not None and p.exists()]
    click.echo(f"Serving {out} at {base_url}" + ("" if no_watch else " (rebuilding on change)") + "; Ctrl+C to stop")
    serve_site(out, bind, port, None if no_watch else rebuild, watched)


def _register_authoring_commands() -> None:
    from registry.cli_authoring import codeowners, new

    main.add_command(new)
    main.add_command(codeowners)


_register_authoring_commands()

if __name__ == "__main__":
    main()
