"""Money in a draft: the amounts it states, the ledger labels they are said of, and what backs them
(docs/amounts.md)."""
