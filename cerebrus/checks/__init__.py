"""The deterministic checks: one module per check, each declaring one `@check` function named like
its module (docs/grading.md). `cerebrus.registry.default_registry()` collects them; modules whose names
start with `_` are shared helpers, not checks.
"""
