"""Listening: Slack events about Smith posts become attributable GradeVerdicts (docs/slack-endpoint.md,
docs/verdicts.md)."""
