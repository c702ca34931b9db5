"""The reference pages made from code (docs/rules.md, policy.md, risk.md) and the catalogue of every rule.

They read every stage (parsing, validation, scoring, the build's own rules), so they sit above all of them,
beside the commands that print them.
"""
