"""Text matching: how Cerebrus reads a draft (folded, as whole tokens) and matches phrase patterns
that are data in the rules, with their exclusions and the languages they apply to
(docs/text-matching.md)."""
