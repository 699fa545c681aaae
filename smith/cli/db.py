"""`smith db upgrade|current`."""

from __future__ import annotations

import typer

from smith.cli.context import settings

app = typer.Typer(help="Database migrations.", no_args_is_help=True)


@app.command("upgrade")
def upgrade_command() -> None:
    """Migrate the configured database to the latest schema."""
    from gradecore.persistence.db import create_db_engine, current_revision, upgrade

    engine = create_db_engine(settings().database_url, timeouts=settings().database_timeouts)
    before = current_revision(engine)
    upgrade(engine)
    after = current_revision(engine)
    typer.echo(
        "database already at the latest schema"
        if before == after
        else f"migrated {before or 'empty'} → {after}"
    )


@app.command("current")
def current_command() -> None:
    """Show the database's schema revision and the latest one."""
    from gradecore.persistence.db import create_db_engine, current_revision, head_revision

    engine = create_db_engine(settings().database_url, timeouts=settings().database_timeouts)
    typer.echo(f"current: {current_revision(engine) or 'empty'} · latest: {head_revision()}")
