"""Every output of a build, listed once: the tuple of emitters (their protocol and contexts: context.py).

An emitter has two hooks, as MkDocs' events, Lektor's build programs and Datasette's plugin hooks do:

- `skill(context, writer)` runs once per published skill, in a worker process (render_jobs.render_skill).
  It writes that skill's files and returns what its site-wide hook needs of the skill: a small,
  picklable value, cached with the skill's render (registry/pipeline.py) and never recomputed for
  a skill that did not change.
- `site(context, writer, results)` runs once, in the build process, after every skill is rendered.
  `results` holds each published skill's value from `skill`, in the order of `context.published`;
  it reads them back one at a time from a spool file, so a registry of any size fits in memory.
  What it returns is kept by name (the search emitter returns its SearchStats).

Adding an output is one class and one entry in EMITTERS (and in `emitters`, when registry.yaml can turn it
off: config.Outputs). An emitter's repr is part of the render
cache key (make it a dataclass): a different set of emitters renders every skill again. The order
of EMITTERS is the order the hooks run in.
"""

from __future__ import annotations

from registry.config import Outputs
from registry.emit.ai_catalog import AiCatalog
from registry.emit.context import Emitter
from registry.emit.feeds import Feeds
from registry.emit.files import SkillFiles
from registry.emit.html import HtmlPages
from registry.emit.index_json import IndexJson
from registry.emit.marketplaces import Marketplaces
from registry.emit.search import SiteSearch
from registry.emit.signatures import Signatures
from registry.emit.sitemap import Sitemap
from registry.emit.stats import StatsPage
from registry.emit.well_known import WellKnown

EMITTERS: tuple[Emitter, ...] = (
    SkillFiles(), WellKnown(), HtmlPages(), IndexJson(), Feeds(), Sitemap(), StatsPage(), AiCatalog(), SiteSearch(),
    Marketplaces(), Signatures(),
)  # fmt: skip


def emitters(outputs: Outputs) -> tuple[Emitter, ...]:
    """The emitters of a build writing `outputs` (registry.yaml `outputs:`): EMITTERS without the optional
    outputs turned off. A different choice is a different tuple, so every skill renders again (the render key
    holds the tuple's repr, and the pages' SiteInfo the outputs their links may name)."""
    optional = {Marketplaces: outputs.marketplaces, AiCatalog: outputs.ai_catalog, Feeds: outputs.feeds}
    chosen = []
    for emitter in EMITTERS:
        if not optional.get(type(emitter), True):
            continue
        if isinstance(emitter, WellKnown):
            emitter = WellKnown(discovery_v0_1=outputs.discovery_v0_1, skill_indexes=outputs.skill_indexes)
        chosen.append(emitter)
    return tuple(chosen)
