"""Money (R112, R113): wallet keys and wallet files read by code, alone or in a skill that talks to the network.

Levels, and the false positives they avoid (measured on the development corpus):

- A wallet key (R104, R112, R113) is a name that says WALLET, MNEMONIC, SEED or KEYPAIR, or a bare
  PRIVATE_KEY in a skill that talks about wallets and chains; JWT, SSH, TLS and app keys are not
  (is_wallet_key, in view.py).
- `example.com` and the other documentation hosts are named last (is_placeholder): a real host first.
"""

from __future__ import annotations

from registry.score.card import ENV, FROM_METADATA, HOST, PATH
from registry.score.card_rules.declared import _undeclared
from registry.score.card_rules.view import (
    CONTACT,
    SkillView,
    _capped,
    _first_per_value,
    _item,
    _where,
    is_local,
    is_wallet_key,
)
from registry.score.risk.rules import METADATA, Item, RiskRule, _rule
from registry.score.vocabulary import registrable

WALLET_KEY_READ = _rule(
    "R112", "medium", "money",
    "wallet key read by code",
    "{what} reads {target}",
    "whoever holds a wallet's private key, seed phrase or keystore can move its funds; the skill and "
    "everything it talks to can spend the user's money",
    "Reviewers: check what the key signs and where. Authors: use a signer or hardware wallet that keeps "
    "the key out of the agent's reach, and spending limits.",
    "reads wallet key {target}",
    METADATA,
    "const wallet = new Wallet(process.env.PRIVATE_KEY)",
)  # fmt: skip
WALLET_KEY_WITH_NETWORK = _rule(
    "R113", "high", "money",
    "wallet key read by a skill that talks to the network",
    "{what} reads {target} (line {source_line}), and {sink} (line {sink_line}) {verb} {host}",
    "a wallet key and a network send in one skill is everything needed to move the user's funds, or to "
    "send the key itself away",
    "Reviewers: follow the key from where it is read to every request. Authors: sign with a wallet the "
    "user controls and send only signed transactions to a documented endpoint.",
    "reads wallet key {target} in a skill that sends to {host}",
    METADATA,
    "process.env.PRIVATE_KEY read in scripts/trade.js, which posts to https://api.example-dex.com",
)  # fmt: skip


# The rules declared here; the package's RULES lists every card rule in one order.
RULES: tuple[RiskRule, ...] = (
    WALLET_KEY_READ,
    WALLET_KEY_WITH_NETWORK,
)


def money(view: SkillView) -> list[Item]:
    card = view.card
    keys = [
        u
        for u in card.uses
        if (
            (u.kind == ENV and is_wallet_key(view, u.value, u.sensitive))
            or (u.kind == PATH and u.sensitive == "wallet" and u.detail in ("read", "list", ""))
        )
        and view.is_command(u)
    ]
    if not keys:
        return []
    sends = [u for u in card.of(HOST) if u.detail == "send" and u.origin != FROM_METADATA and not is_local(u.value)]
    contacts = [u for u in card.of(HOST) if u.detail in CONTACT and view.is_command(u) and not is_local(u.value)]
    sends.sort(key=lambda u: is_placeholder(u.value))  # a real host first in the message, if there is one
    contacts.sort(key=lambda u: is_placeholder(u.value))
    items: list[Item] = []
    for value, uses in _first_per_value(keys).items():
        first = uses[0]
        target = f"${value}" if first.kind == ENV else value
        here = [s for s in sends if s.path == first.path]
        sink = next(iter(here + sends), None) or next((c for c in contacts if c.path == first.path), None)
        if sink is not None:
            verb = {"send": "sends data to", "fetch": "fetches from", "open": "opens"}.get(sink.detail, "contacts")
            what = view.name(first.path)
            items.append(
                _item(WALLET_KEY_WITH_NETWORK, sink.path, sink.line, sink.evidence or sink.value, what=what,
                      target=target, source_line=first.line, sink=view.name(sink.path), sink_line=sink.line,
                      host=sink.value, verb=verb)
            )  # fmt: skip
        elif not (first.kind == ENV and _undeclared(view, value)):  # R104 already says it, at high
            what = _where(view, first)
            items.append(_item(WALLET_KEY_READ, first.path, first.line, first.evidence or value, what=what,
                               target=target))  # fmt: skip
    return _capped(items)


def is_placeholder(host: str) -> bool:
    """RFC 2606 documentation hosts: example.com/.net/.org and the .example, .test, .invalid names."""
    return registrable(host) in ("example.com", "example.net", "example.org") or host.endswith(
        (".example", ".test", ".invalid")
    )
