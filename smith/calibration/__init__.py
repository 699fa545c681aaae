"""The calibration loop: from staff disagreement to a proven rule change (docs/calibration.md).

`disagreements` counts standing human acts per (check, rule entry); `suggest` writes the smallest
rules-file change that would have agreed with the humans; `trial` proves a candidate against the
calibration fixtures and the stored window; `regrade` applies the current rubric to what is stored.
Nothing here changes a rule: a person applies a candidate by pointing SMITH_RULES_FILE at it.
"""
