"""One search for every analyser's needles over each file's text.

Several analysers first look for their needles (the literal words some rule of theirs needs) in a
file's lower-cased text, and read closely only the lines that hold one: the line rules, the
instruction families, the intent family, the agent-configuration writes and the hidden channels.
Each search is a linear pass over the whole file; one Aho-Corasick automaton over all their needles
makes it one pass. Each analyser gets its own matches, indexed in its own needle list, in the order
its own automaton would report them: by end position, the longest first where several end together
(tests/score/test_needles.py checks this against each analyser's list on generated text). The DFA form finds
the same matches about 3 times faster than the default one (bench/analysis_cost.py), for a few kB more.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import ahocorasick_rs

from registry.score.risk.lines import TextFile

Match = tuple[int, int, int]  # (index in the owner's needle list, start, end) in the lower-cased text

LINE_RULES = "line rules"
INSTRUCTIONS = "instructions"
INTENT = "intent"
CONFIG_WRITES = "agent configuration writes"
HIDDEN_CHANNELS = "hidden channels"


class NeedleTable:
    """The needles of several owners in one automaton; `search` splits the matches back by owner."""

    def __init__(self, owners: Mapping[str, Sequence[str]]) -> None:
        combined: dict[str, list[tuple[str, int]]] = {}
        for owner, needles in owners.items():
            for local, needle in enumerate(needles):
                combined.setdefault(needle, []).append((owner, local))
        self.names = tuple(owners)
        self.owner_needles = {owner: tuple(needles) for owner, needles in owners.items()}
        self.needles = sorted(combined)
        self._owners = [tuple(combined[needle]) for needle in self.needles]
        self._engine = ahocorasick_rs.AhoCorasick(self.needles, implementation=ahocorasick_rs.Implementation.DFA)

    def needles_of(self, owner: str) -> tuple[str, ...]:
        return self.owner_needles[owner]

    def search(self, low: str) -> dict[str, list[Match]]:
        found: dict[str, list[Match]] = {name: [] for name in self.names}
        owners = self._owners
        for index, start, end in self._engine.find_matches_as_indexes(low, overlapping=True):
            for owner, local in owners[index]:
                found[owner].append((local, start, end))
        return found


@functools.cache
def shared() -> NeedleTable:
    # Imported here, not at the top: each owner imports this module for `needles_in`.
    from registry.score import instructions
    from registry.score.families import agent_config, hidden_channels, intent
    from registry.score.risk import detectors

    return NeedleTable(
        {
            LINE_RULES: detectors.LINE_NEEDLES,
            INSTRUCTIONS: instructions.NEEDLES,
            INTENT: intent.NEEDLES,
            CONFIG_WRITES: agent_config.NEEDLES,
            HIDDEN_CHANNELS: hidden_channels.NEEDLES,
        }
    )


def needles_in(file: TextFile, owner: str) -> list[Match]:
    """`owner`'s needles in the file's lower-cased text (`TextFile.lowered`), searched once for every owner."""
    if not file.searched:
        file.searched.update(shared().search(file.lowered[0]))
    return file.searched[owner]
