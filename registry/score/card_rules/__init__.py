"""Card rules: the merged capability card read against what the skill declares, and across its files.

The analysers (code parsers, prose analysis) turn each file into `Use`s; the rules here read the
whole card at once, which no single-file rule can. One module per family, each rule's declaration
beside the check that fires it:

- declared.py, declared against used: commands outside a restricted `allowed-tools` (R100, R101), an
  unrestricted shell where one or two programs would do (R102), secret-like environment variables
  read but not in the skill's `requires` (R103, R104), programs missing from `requires.bins`
  (R105), network use by a skill that declares itself offline (R106);
- flows.py, flows between instructions and scripts: a secret read on one side and a send on the other,
  linked because the instructions run the script (R107, R108); a service's token and its hosts
  (SERVICES): GITHUB_TOKEN sent to api.github.com is the integration working and never a flow; the
  same token in a request to any other host is its theft (R142);
- handoffs.py, sensitive data handed over through a named file: the instructions write the
  conversation, the context, the environment or secrets into it and a script reads it and sends, or a
  script writes a credential store into it and the instructions upload it (R140, R141 when it goes to
  the service of a token the skill reads);
- indirect.py, indirect injection by a helper script: pages opened or content fetched from hosts the
  instructions never mention, in the background, or from hosts without an accountable owner
  (R109-R111); instructions to follow what such a helper prints (R147);
- money.py: wallet keys and wallet files read by code (R112, R113);
- supply_chain.py: unpinned installs of packages named nowhere else, installs from URLs, install
  hooks (R114-R119), names one typo or look-alike letter from a popular package (R146);
- prose.py, sentences of the instructions: to read a credential store out (R143), to send secrets to
  a host (R144, R145), to download a program and run it (R148);
- view.py, what the modules share: the skill's files read once (SkillView), its requirements, the
  services and their hosts, where the instructions run a script, the findings' form.

A rule here fires only on what the card shows; the card rules never read bytes again, except the
instruction files' text for references to scripts and for hosts and names they mention (bounded
by the text files risk/lines.py already read). Nothing from a skill is executed or imported.
"""

from __future__ import annotations

from registry.model import Skill
from registry.score.card import CapabilityCard
from registry.score.card_rules import declared, flows, handoffs, indirect, money, prose, supply_chain
from registry.score.card_rules.declared import parse_allowed_tools, shell_grants
from registry.score.card_rules.view import PER_RULE, SkillView, owns_host, requirements
from registry.score.risk.lines import TextFile
from registry.score.risk.rules import Item, RiskRule

__all__ = [
    "PER_RULE",
    "RULES",
    "SkillView",
    "card_rules",
    "owns_host",
    "parse_allowed_tools",
    "requirements",
    "shell_grants",
]

RULES: tuple[RiskRule, ...] = (
    declared.COMMAND_NOT_ALLOWED,
    declared.PROGRAM_NOT_ALLOWED,
    declared.SHELL_BROADER_THAN_USE,
    declared.SECRET_NOT_DECLARED,
    declared.WALLET_KEY_NOT_DECLARED,
    declared.BINARY_NOT_REQUIRED,
    declared.NETWORK_WHILE_OFFLINE,
    flows.SECRET_FLOW_ACROSS_FILES,
    flows.DATA_FLOW_ACROSS_FILES,
    indirect.HIDDEN_CONTACT,
    indirect.UNMENTIONED_PAGE_OPENED,
    indirect.UNMENTIONED_FETCH,
    money.WALLET_KEY_READ,
    money.WALLET_KEY_WITH_NETWORK,
    supply_chain.UNKNOWN_PACKAGE,
    supply_chain.SCRIPT_INSTALLS_UNKNOWN,
    supply_chain.INSTALL_FROM_CODE_HOST,
    supply_chain.INSTALL_FROM_URL,
    supply_chain.HOOK_FETCHES_OR_EVALUATES,
    supply_chain.HOOK_RUNS_CODE,
    handoffs.FILE_HANDOFF,
    handoffs.FILE_HANDOFF_OWN_SERVICE,
    flows.TOKEN_TO_OTHER_HOST,
    prose.CREDENTIAL_READ_BY_INSTRUCTION,
    prose.SECRETS_SENT_BY_INSTRUCTION,
    prose.SECRETS_SENT_UNDER_PRETEXT,
    supply_chain.TYPO_SQUAT,
    indirect.FETCHED_OUTPUT_OBEYED,
    prose.DOWNLOAD_AND_RUN_BY_INSTRUCTION,
)


def card_rules(skill: Skill, card: CapabilityCard, files: list[TextFile]) -> list[Item]:
    """Every rule of this package over one skill's merged card."""
    if not card.uses:
        return []
    view = SkillView(skill, card, files)
    items: list[Item] = []
    items += declared.declared_against_used(view)
    items += flows.flows_across_files(view)
    items += indirect.helper_contacts(view)
    items += money.money(view)
    items += supply_chain.supply_chain(view)
    linked = {(i.finding.path, i.finding.line) for i in items if i.rule is flows.SECRET_FLOW_ACROSS_FILES}
    items += [i for i in handoffs.file_handoffs(view) if (i.finding.path, i.finding.line) not in linked]  # R107 said it
    items += flows.service_tokens(view)
    items += prose.credentials_in_instructions(view)
    items += prose.secrets_sent_by_instruction(view)
    items += supply_chain.typo_squats(view)
    items += indirect.fetched_output_obeyed(view)
    items += prose.downloads_run_by_instruction(view)
    return items
