"""The nightly sweep (docs/jobs.md): the day's human acts become anonymized regression fixtures
(`smith/anonymizer/`, `smith/leaks/`, `smith/regression_fixtures/`) and one ticket per root cause."""
