"""Imports go down the layers: shared helpers never live in a dialect, a stage or an emitter.

A module may import, at module level, from its own layer or a lower one, and no module imports, through any
chain, one that imports it back (in registry/emit, not even for type checkers). Imports inside functions
and under TYPE_CHECKING are not counted: they are how a lower layer reaches the catalogue only when
asked (analysis.known_rule_codes). A new module of registry/ must be placed in LAYERS.
"""

from __future__ import annotations

import ast
import fnmatch
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

REGISTRY = REPO_ROOT / "registry"

# Lowest first; a pattern ending in ".*" covers a package's modules unless one is named elsewhere.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("helpers", ("registry", "config", "model", "text", "workers", "state", "signing", "parse", "parse.safe_yaml", "parse.body",
                 "dialects.values")),
    ("rules and reading", ("rules", "rules.base", "rules.fields", "rules.layout", "rules.reading",
                           "rules.pull_request", "parse.document", "checksum")),
    ("input", ("crawl", "history", "versions", "policy", "lifecycle")),
    ("dialects and parsing", ("dialects", "dialects.*", "parse.skill", "validate")),
    ("scoring", ("score", "score.*")),
    ("analysis", ("discovery", "skill_jobs", "analysis", "checker", "pr", "result", "reviewers")),
    ("output", ("emit", "emit.*", "emit.highlight", "search", "search.*", "render_jobs", "report", "sarif", "summary")),
    ("build", ("pipeline", "build", "serve", "verify")),
    ("commands and reference pages", ("cli", "cli_authoring", "reference", "reference.*")),
)  # fmt: skip


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    short = module.removeprefix("registry").removeprefix(".") or "registry"
    exact = [index for index, (_, names) in enumerate(LAYERS) if short in names]
    pattern = [index for index, (_, names) in enumerate(LAYERS) if any(fnmatch.fnmatch(short, n) for n in names)]
    found = exact or pattern
    assert found, f"{module} has no layer: add it to LAYERS in tests/test_layers.py"
    return found[0]


def module_level_imports(source: str, module: str, modules: set[str], typing: bool = False) -> set[str]:
    """The registry modules `module` imports when it is loaded (not in functions; for type checkers too when
    `typing`)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, ast.Import):
                found.update(alias.name for alias in statement.names)
            elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                for alias in statement.names:
                    submodule = f"{statement.module}.{alias.name}"
                    found.add(submodule if submodule in modules else statement.module)
            elif isinstance(statement, ast.If) and (typing or "TYPE_CHECKING" not in ast.unparse(statement.test)):
                visit(statement.body)
                visit(statement.orelse)
            elif isinstance(statement, ast.Try):
                visit(statement.body)
                visit(statement.orelse)
                visit(statement.finalbody)
                for handler in statement.handlers:
                    visit(handler.body)

    visit(ast.parse(source, module).body)
    return {name for name in found if name == "registry" or name.startswith("registry.")}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{importer} ({LAYERS[layer_of(importer)][0]}) imports {imported} ({LAYERS[layer_of(imported)][0]})"
        for importer, imported_modules in graph.items()
        for imported in imported_modules
        if layer_of(imported) > layer_of(importer)
    )


def registry_graph(typing: bool = False) -> dict[str, set[str]]:
    paths = {module_name(path): path for path in REGISTRY.rglob("*.py")}
    modules = set(paths)
    return {
        name: module_level_imports(path.read_text(encoding="utf-8"), name, modules, typing)
        for name, path in paths.items()
    }


def test_no_module_imports_a_higher_layer_at_module_level():
    upward = upward_imports(registry_graph())
    assert not upward, "imports up the layers (move the shared code down, or import it where it is used):\n" + (
        "\n".join(upward)
    )


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle of module-level imports, each as the modules around it (found once, from its least name)."""
    cycles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            module, path = stack.pop()
            for imported in sorted(graph.get(module, ())):
                if imported == start:
                    cycles.append(path)
                elif imported > start and imported not in path:
                    stack.append((imported, [*path, imported]))
    return cycles


def test_no_module_imports_itself_back_through_others():
    graph = {module: {m for m in imported if m != module} for module, imported in registry_graph().items()}
    assert_no_cycles(graph)


def test_the_emit_package_has_no_circle_even_for_type_checkers():
    """The emitters and their list once imported each other for types (issue 23, item 8): in registry/emit, a
    type-only import counts too, so every import points from the list to the emitters to their contexts."""
    graph = {
        module: {m for m in imported if m != module and m.startswith("registry.emit")}
        for module, imported in registry_graph(typing=True).items()
        if module.startswith("registry.emit")
    }
    assert_no_cycles(graph)


def assert_no_cycles(graph: dict[str, set[str]]) -> None:
    cycles = import_cycles(graph)
    assert not cycles, "import cycles (move what both need into a module below both):\n" + "\n".join(
        " -> ".join([*cycle, cycle[0]]) for cycle in cycles
    )


def test_an_import_cycle_is_reported():
    graph = {
        "registry.a": {"registry.b"},
        "registry.b": {"registry.c"},
        "registry.c": {"registry.a"},
        "registry.d": set(),
    }
    assert import_cycles(graph) == [["registry.a", "registry.b", "registry.c"]]


def test_an_upward_import_is_reported():
    source = "from registry.pipeline import run\nif TYPE_CHECKING:\n    from registry.build import build\n"
    graph = {"registry.text": module_level_imports(source, "registry.text", {"registry.pipeline"})}
    assert upward_imports(graph) == ["registry.text (helpers) imports registry.pipeline (build)"]


def test_the_analysis_loads_neither_the_rule_catalogue_nor_an_emitter():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, registry.analysis; print(*sorted(sys.modules))"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert "registry.reference.catalog" not in loaded
    assert [name for name in loaded if name.startswith("registry.emit")] == []
