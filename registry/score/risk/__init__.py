"""Static risk analysis: what a skill's files would make an agent do, and the level that follows.

- lines.py: each text file as lines that carry their context (code, prose, frontmatter, data);
- rules.py: the line rules (R0xx) and the `RiskRule` every analyser declares its rules with;
- detectors.py: the bounded regular expressions behind the line rules, and URL helpers;
- assessment.py: `assess`, `RULES` (every risk rule) and the level arithmetic;
- docs.py: docs/risk.md, generated from the modules above.

Nothing is re-exported here: the analysers beside this package (card_rules/, code/, ...) import
rules.py and lines.py, and assessment.py imports those analysers, so loading assessment.py with the
package would make each analyser's import of rules.py circular.
"""
