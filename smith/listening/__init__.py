"""Listening: Slack events about Smith posts become attributable GradeVerdicts (SPEC §5.3, §6)."""
