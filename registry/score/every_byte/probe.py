"""What the every-byte modules share: one pass over each file for every needle, and the findings' form.

- `probe`: the offsets of every needle in a file (tokens and wallet words, miners and endless loops, `://`
  and `xn--`, invisible characters), by the check that wants them, in one Aho-Corasick pass over the
  lower-cased bytes; secrets.py, resources.py, lookalikes.py and characters.py read a file only when it
  has their needles, and only the lines they land on (`_line_numbers`, `_lines_on`);
- SEP, how a member is named (`<file>!/<member>`), and PER_FILE, the findings of one check per file;
- `_fact`: what a check found, with the values the message of its rule (the fact table's) is filled with;
- `_item`: a finding of a card rule, which reads the card.
"""

from __future__ import annotations

import ahocorasick_rs

from registry.score.risk.facts import Fact
from registry.score.risk.lines import Line, TextFile
from registry.score.risk.rules import Item, RiskRule, show

SEP = "!/"
PER_FILE = 5


# -- the findings' form --------------------------------------------------------------------


def _fact(shape: str, where: str, line: int | None, excerpt: str, column: int | None = None, /, **params) -> Fact:
    shown = excerpt or show(str(params.get("what") or params.get("reason") or params.get("format") or where))
    return Fact(shape, where, line, column, shown, params)


def _item(rule: RiskRule, where: str, line: int | None, excerpt: str, column: int | None = None, /, **params) -> Item:
    shown = excerpt or show(str(params.get("what") or params.get("reason") or params.get("format") or where))
    return Item(rule.at(where, line, column, excerpt=shown, **params), rule, params)


# -- one pass over each file for every needle --------------------------------------------

SECRET_HITS, WALLET_HITS, RESOURCE_HITS, HOST_HITS, INVISIBLE_HITS = "secret", "wallet", "resource", "host", "invisible"
_INVISIBLE_CHARS = (
    "\u00ad\u061c\u180e" + "".join(map(chr, range(0x200B, 0x2010))) + "".join(map(chr, range(0x202A, 0x202F)))
    + "".join(map(chr, range(0x2060, 0x2065))) + "".join(map(chr, range(0x2066, 0x206A))) + "\ufeff"
)  # fmt: skip
_NEEDLES: tuple[tuple[bytes, str], ...] = (
    *((n, SECRET_HITS) for n in (
        b"akia", b"asia", b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"github_pat_", b"xoxb-", b"xoxa-", b"xoxp-",
        b"xoxo-", b"xoxs-", b"xoxr-", b"k_live_", b"sk-proj-", b"sk-ant-", b"sk-svcacct-", b"sk-admin-", b"t3blbkfj",
        b"private key-----", b"eyj", b"aiza",
        b"hooks.slack.com/services/", b"/api/webhooks/", b":aa", b"aws_secret_access_key",
    )),
    *((n, WALLET_HITS) for n in (
        b"mnemonic", b"seed", b"recovery phrase", b"secret phrase", b"private_key", b"private key", b"privatekey",
        b"private-key", b"priv_key", b"privkey", b"secret_key", b"secretkey", b"secret key", b"keypair", b"bip39",
        b"bip-39", b"wallet_key", b"wallet key", b"walletkey", b"wallet_secret", b"signer_key", b"signing_key",
        b"signing key", b"eth_key", b"account_key",
    )),
    *((n, RESOURCE_HITS) for n in (
        b"xmrig", b"xmr-stak", b"minerd", b"cpuminer", b"ccminer", b"ethminer", b"nbminer", b"lolminer", b"t-rex",
        b"phoenixminer", b"nanominer", b"srbminer", b"gminer", b"teamredminer", b"bminer", b"cgminer", b"bfgminer",
        b"stratum+", b"stratum://", b"donate-level", b"nicehash", b"minexmr", b"supportxmr", b"moneroocean",
        b"nanopool", b"2miners", b"f2pool", b"c3pool", b"hashvault", b"herominers", b"unmineable", b"ethermine",
        b"viabtc", b"antpool", b":|:", b"&}", b"& }", b"%0|%0", b"%0 | %0", b"fork while fork", b"fork()", b"hping",
        b"slowloris", b"slowhttptest", b"ab -n", b"__filename", b"__file__", b"$0", b"process.argv[1]",
        b"while true", b"while :", b"while [ 1", b"while ((1",
        b"while (true)", b"while(true)", b"while (1)", b"while(1)", b"for (;;)", b"for(;;)", b"until false",
    )),
    (b"://", HOST_HITS),
    (b"xn--", HOST_HITS),
    *((ch.encode("utf-8"), INVISIBLE_HITS) for ch in _INVISIBLE_CHARS),
    (b"\xf3\xa0\x80", INVISIBLE_HITS),  # Unicode tag characters U+E0000-U+E007F
    (b"\xf3\xa0\x81", INVISIBLE_HITS),
)  # fmt: skip
# DFA: the same matches as the default automaton, about 3 times faster over a file.
_PROBE = ahocorasick_rs.BytesAhoCorasick(
    [needle for needle, _ in _NEEDLES], implementation=ahocorasick_rs.Implementation.DFA
)


def probe(data: bytes) -> dict[str, list[int]]:
    """The offsets of every needle in `data` (ASCII case ignored), by the check that wants them: one pass."""
    hits: dict[str, list[int]] = {}
    for index, start, _end in _PROBE.find_matches_as_indexes(data.lower(), overlapping=True):
        hits.setdefault(_NEEDLES[index][1], []).append(start)
    return hits


def _line_numbers(data: bytes, offsets: list[int], limit: int = 200) -> set[int]:
    numbers: set[int] = set()
    last_offset, last_number = 0, 1
    for offset in sorted(offsets)[:limit]:
        last_number += data.count(b"\n", last_offset, offset)
        last_offset = offset
        numbers.add(last_number)
    return numbers


def _lines_on(file: TextFile, numbers: set[int]) -> list[tuple[int, Line]]:
    """(index, line) of the file's lines that cover any of the physical line numbers."""
    return [(i, line) for i, line in enumerate(file.lines) if any(span[1] in numbers for span in line.spans)]
