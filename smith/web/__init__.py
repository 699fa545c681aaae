"""The HTTP surface of `smith serve`: ingest, health, readiness, and (mounted by app.py) Slack's events."""
