"""The `skill-registry` command: thin wrappers that parse options, call a stage, print.

Output: what a command was asked for (findings, digests, search results, JSON) goes to stdout;
progress, the build summary, notes, warnings and errors go to stderr, so `build` and `serve`
leave stdout empty and every other command's stdout can be piped. Messages on stderr start with
"error: ", "warning: " or "note: ", then a lower-case sentence without a final period.

Start-up: this module imports only click and the settings, so that `--help` and the light
commands start fast; each command imports what it runs.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import click

from registry import __version__
from registry.config import BUNDLED_SKILLS, DEFAULT_OUT, BuildOptions

if TYPE_CHECKING:
    from registry.result import BuildResult

REGISTRY_FOLDER = Path("skills-index")  # where a registry keeps its skills, at its root


class RegistryGroup(click.Group):
    """The command group, with click's own usage errors worded like every other message.

    Commands kept in other modules (LAZY) are imported when they are run or listed, so a command such as
    `search` starts without importing what it does not use.
    """

    LAZY: ClassVar[dict[str, str]] = {
        "new": "registry.cli_authoring",
        "codeowners": "registry.cli_authoring",
        "skills-sh": "registry.cli_authoring",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            module = importlib.import_module(self.LAZY[cmd_name])
            self.add_command(getattr(module, cmd_name.replace("-", "_")), cmd_name)  # skills-sh: skills_sh
        return super().get_command(ctx, cmd_name)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as err:
            click.echo(f"error: {_sentence(err.format_message())}", err=True)
            if err.ctx is not None:
                click.echo(f"{err.ctx.get_usage()}\nTry '{err.ctx.command_path} --help' for help", err=True)
            sys.exit(err.exit_code)
        except click.ClickException as err:
            click.echo(f"error: {_sentence(err.format_message())}", err=True)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


def _sentence(message: str) -> str:
    """click's messages ("Invalid value for ...") in the house style: lower-case start, no final period."""
    message = message.strip().rstrip(".")
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


@click.group(cls=RegistryGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skill-registry")
def main() -> None:
    """Build and check a static registry of agent skills."""


def choose_source(explicit: Path | None) -> Path:
    """--source when given; else ./skills-index/ (a registry's root); else the bundled example. Says which."""
    if explicit is not None:
        source, line = explicit, f"Reading {explicit}"
    elif REGISTRY_FOLDER.is_dir():
        source, line = REGISTRY_FOLDER, f"Reading {REGISTRY_FOLDER}/ (this registry)"
    elif BUNDLED_SKILLS.is_dir():
        source = BUNDLED_SKILLS
        line = f"Reading the bundled example registry at {source} (no {REGISTRY_FOLDER}/ here; --source picks another)"
    else:
        click.echo(f"error: no {REGISTRY_FOLDER}/ here and no bundled example registry; pass --source FOLDER", err=True)
        sys.exit(2)
    click.echo(line, err=True)
    return source


def warn_when_empty(result: BuildResult) -> None:
    if result.counts()["skills_found"] == 0:
        click.echo(f"warning: no SKILL.md found under {result.source}; the site lists no skills", err=True)


SOURCE_HELP = (
    "Folder (or git checkout) holding the skills. Default: ./skills-index/ when it exists, else the bundled "
    "example registry."
)


@main.command(short_help="Build the site and its index.json from a tree of skills.")
@click.option("--source", type=click.Path(exists=True, file_okay=False, path_type=Path), help=SOURCE_HELP)
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
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line (and warnings and errors).")
@click.option(
    "--signing-key",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Private key (PEM) that signs every skill and index; default: $SKILL_REGISTRY_SIGNING_KEY (the PEM) or "
    '$SKILL_REGISTRY_SIGNING_KEY_FILE (a path). Keep it out of the repository (README "Signing").',
)
def build(
    source: Path | None, out: Path, base_url: str, strict: bool, report: Path | None, policy: Path | None,
    title: str, clean: bool, jobs: int | None, quiet: bool, signing_key: Path | None,
) -> None:  # fmt: skip
    """Build the site, index.json and the .well-known layouts from a tree of skills.

    Builds are incremental: what did not change since the last build into the same --out is
    reused from the build state beside it, and a build that changes nothing writes nothing.
    The output is byte-for-byte what --clean would give.

    The site and --report are the results; progress and the summary go to stderr.
    """
    from registry.emit.output import BuildLocked
    from registry.policy import PolicyError
    from registry.signing import UNSIGNED_NOTE, SigningKeyError, load_signing_key
    from registry.summary import print_build_summary, progress_reporter

    chosen = source if quiet and source is not None else choose_source(source)
    try:
        key = load_signing_key(signing_key)
    except SigningKeyError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    if key is None:
        click.echo(UNSIGNED_NOTE, err=True)
    options = BuildOptions(
        source=chosen, out=out, base_url=base_url, strict=strict, report=report, policy=policy, title=title,
        clean=clean, jobs=jobs, signing=key,
    )  # fmt: skip
    with progress_reporter(enabled=not quiet) as progress:
        try:
            from registry.build import build as run_build

            result = run_build(options, progress)
        except BuildLocked as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(1)
        except PolicyError as err:
            _policy_problems(err)
            sys.exit(1)
    print_build_summary(result, quiet=quiet)
    warn_when_empty(result)
    if strict and result.error_count:
        sys.exit(1)


@main.command(short_help="Make a key pair for signing the site, and say where each half goes.")
@click.option(
    "--out",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder for skill-registry-signing.key (private) and skill-registry-signing.pub (public).",
)
@click.option("--force", is_flag=True, help="Replace key files already there.")
def keygen(folder: Path, force: bool) -> None:
    """Write a new ECDSA P-256 key pair: the private key (mode 0600) signs builds, the public key is published.

    The private key belongs in your CI's secrets (SKILL_REGISTRY_SIGNING_KEY), never in the repository.
    """
    from registry.signing import generate_key_pair, key_id

    private_file, public_file = folder / "skill-registry-signing.key", folder / "skill-registry-signing.pub"
    existing = [str(p) for p in (private_file, public_file) if p.exists()]
    if existing and not force:
        click.echo(f"error: {' and '.join(existing)} already exist; pass --force to replace them", err=True)
        sys.exit(1)
    folder.mkdir(parents=True, exist_ok=True)
    private_pem, public_pem = generate_key_pair()
    private_file.unlink(missing_ok=True)
    descriptor = os.open(private_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(private_pem)
    public_file.write_bytes(public_pem)
    click.echo(f"private key: {private_file} (keep it secret, out of the repository)")
    click.echo("  put it in your CI's secrets as SKILL_REGISTRY_SIGNING_KEY (the file's text), or pass")
    click.echo("  --signing-key FILE / SKILL_REGISTRY_SIGNING_KEY_FILE=FILE to `skill-registry build`")
    click.echo(f"public key:  {public_file} (key id {key_id(public_pem)})")
    click.echo("  the build publishes it at /.well-known/skill-registry/signing-key.pem; give it to anyone who")
    click.echo("  verifies (skill-registry verify --key, model_signing verify key --public_key)")


@main.command(short_help="Check a skill folder, archive or whole site against the registry's signatures.")
@click.argument("target")
@click.option(
    "--site",
    help="The registry (URL or built site folder) an installed skill or archive is from; "
    "default: $SKILL_REGISTRY_SITE.",
)
@click.option(
    "--key",
    "key_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Public key to trust (PEM); default: the site's own, at the address index.json names.",
)
def verify(target: str, site: str | None, key_file: Path | None) -> None:
    """Check TARGET byte for byte against the registry's public key and digests.

    TARGET is an installed skill folder (such as ~/.claude/skills/<name>), a downloaded archive, or a whole
    site (URL or folder). Exit 0 when every byte matches; 1 with each file that differs, is missing or was
    added; 2 when TARGET cannot be checked (no site, an unsigned site, a key that is not the site's).
    """
    from registry.signing import SigningKeyError
    from registry.verify import VerifyError
    from registry.verify import verify as run_verify

    try:
        report = run_verify(target, site, key_file)
    except (VerifyError, SigningKeyError, ValueError) as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    for problem in report.problems:
        click.echo(problem)
    what = f"{target} ({report.skill})" if report.skill else target
    if report.ok:
        click.echo(f"verified: {what}: {report.checked} files match the registry's signatures", err=True)
        return
    click.echo(f"error: {what} does not match the registry's signatures: {len(report.problems)} problems", err=True)
    sys.exit(1)


def _policy_problems(err) -> None:
    click.echo(f"error: {err.path} is not a valid policy:", err=True)
    for problem in err.problems:
        click.echo(f"  {problem}", err=True)


@main.command(short_help="Check skills as a build would, before publishing.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="text: one compiler-style line per finding; json: stable JSON; github: GitHub Actions annotations; "
    "sarif: a SARIF 2.1.0 log for GitHub code scanning (upload it with github/codeql-action/upload-sarif).",
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
    from registry.model import Finding, Severity

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


@main.command(short_help="Print (or write) the content digest of a skill.")
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


@main.command(short_help="Print every rule: code, severity, example, fix.")
def rules() -> None:
    """Print every rule with its code, severity, example and fix (Markdown)."""
    from registry.reference.catalog import markdown_table

    click.echo(markdown_table(), nl=False)


@main.command(short_help="Regenerate docs/rules.md, policy.md and risk.md.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("docs"),
    show_default=True,
    help="Folder the pages are written to.",
)
def docs(out: Path) -> None:
    """Regenerate the reference pages made from code: rules.md, policy.md and risk.md."""
    from registry.policy import policy_markdown
    from registry.reference.catalog import markdown_table
    from registry.reference.risk import risk_markdown

    out.mkdir(parents=True, exist_ok=True)
    (out / "rules.md").write_text(markdown_table(), encoding="utf-8")
    (out / "policy.md").write_text(policy_markdown(), encoding="utf-8")
    (out / "risk.md").write_text(risk_markdown(), encoding="utf-8")
    click.echo(f"Wrote {out / 'rules.md'}, {out / 'policy.md'} and {out / 'risk.md'}", err=True)


@main.command("check-pr", short_help="Check a pull request: can it be merged?")
@click.option("--base", required=True, help="The commit the pull request targets (e.g. origin/main or a sha).")
@click.option("--head", default="HEAD", show_default=True, help="The pull request's commit.")
@click.option("--actor", help="GitHub login of the author; checked against namespace owners in registry.yaml.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github", "markdown"]),
    default="text",
    show_default=True,
    help="text: a line per change and finding; json: stable JSON; github: GitHub Actions annotations; "
    "markdown: a pull request comment.",
)
@click.option(
    "--source", default="skills-index", show_default=True, help="Skills folder, relative to the repository root."
)
@click.option(
    "--repo",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The registry's git repository.",
)
def check_pr(base: str, head: str, actor: str | None, output_format: str, source: str, repo: Path) -> None:
    """Check a pull request: exit 0 when it can be merged, 1 when it cannot (2 for usage errors)."""
    from registry import pr
    from registry import report as reports
    from registry.model import Severity

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


@main.command(short_help="Search a built site's skills, ranked as the site ranks them.")
@click.argument("query")
@click.option(
    "--site",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="A built site: its search/ shards, and the whole descriptions kept in .<site>.cache/ beside it.",
)
@click.option("--category", help="Only this category.")
@click.option("--trust", type=click.Choice(["official", "verified", "community"]), help="Only this trust tier.")
@click.option("--risk", type=click.Choice(["low", "medium", "high", "critical"]), help="Only this risk level.")
@click.option("--dialect", help="Only skills using this dialect (e.g. skillli, wolffish).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200), help="Most results to show.")
@click.option("--json", "as_json", is_flag=True, help="Stable JSON for agents and scripts.")
def search(
    query: str, site: Path, category: str | None, trust: str | None, risk: str | None, dialect: str | None,
    limit: int, as_json: bool,
) -> None:  # fmt: skip
    """Search a built site's skills, ranked as the site ranks them.

    Results go to stdout. When nothing matches, the reason says which filter left nothing.
    """
    from registry.search.present import no_results_reason, print_results, results_json
    from registry.search.query import Filters, has_index
    from registry.search.query import search as run_search

    if not has_index(site):
        command = "skill-registry build" + ("" if site == DEFAULT_OUT else f" --out {site}")
        what = "does not exist" if not site.exists() else "has no search index"
        click.echo(f"error: {site} {what}; build the site first: {command}", err=True)
        sys.exit(2)
    filters = Filters(category, trust, dialect, risk)
    ranked = run_search(site, query, filters, limit)
    reason = None if ranked else no_results_reason(site, query, filters)
    if as_json:
        click.echo(results_json(query, ranked))
        if reason:
            click.echo(reason, err=True)
    elif reason:
        click.echo(reason)
    else:
        print_results(query, ranked)


@main.command(short_help="Build, serve locally, and rebuild on every change.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--source", type=click.Path(exists=True, file_okay=False, path_type=Path), help=SOURCE_HELP)
@click.option(
    "--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True, help="Where the site is built."
)
@click.option("--no-build", is_flag=True, help="Serve the existing --out folder as it is.")
@click.option("--no-watch", is_flag=True, help="Do not rebuild when the source changes.")
@click.option("--bind", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write every finding of each build as JSON here."
)
def serve(
    port: int, source: Path | None, out: Path, no_build: bool, no_watch: bool, bind: str, report: Path | None
) -> None:
    """Build the site, serve it locally as production would, and rebuild whenever a skill changes.

    Progress and the summary of each build go to stderr.
    """
    from registry.build import build as run_build
    from registry.emit.output import BuildLocked
    from registry.policy import PolicyError, find_policy
    from registry.serve import PortUnavailable, open_server, serve_site
    from registry.summary import print_build_summary

    # Listen before building: a busy port is reported at once, not after a build.
    try:
        server = open_server(out, bind, port)
    except PortUnavailable as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    with server:
        base_url = f"http://{'localhost' if bind in ('127.0.0.1', '0.0.0.0') else bind}:{server.server_port}/"
        options = BuildOptions(source=choose_source(source), out=out, base_url=base_url, report=report)

        def rebuild(changed: set[str]) -> None:
            if changed:
                shown = sorted(os.path.relpath(p) for p in changed)
                more = " …" if len(shown) > 8 else ""
                click.echo(f"Changed: {', '.join(shown[:8])}{more}; rebuilding", err=True)
            try:
                result = run_build(options)
            except PolicyError as err:
                _policy_problems(err)
                click.echo("note: still serving the previous site", err=True)
                return
            except (BuildLocked, OSError, ValueError) as err:
                click.echo(f"error: the build failed, still serving the previous site: {err}", err=True)
                return
            print_build_summary(result, quiet=True, reasons=True)
            warn_when_empty(result)

        if not no_build:
            rebuild(set())
        if not out.is_dir():
            click.echo(f"error: {out} does not exist; build it first: skill-registry build --out {out}", err=True)
            sys.exit(2)
        candidates = (options.source, options.templates, options.static, find_policy(options.source))
        watched = [] if no_watch else [p for p in candidates if p is not None and p.exists()]
        click.echo(
            f"Serving {out} at {base_url}" + ("" if no_watch else " (rebuilding on change)") + "; Ctrl+C to stop",
            err=True,
        )
        serve_site(server, None if no_watch else rebuild, watched)


if __name__ == "__main__":
    main()
