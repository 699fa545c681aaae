"""The year-of-traffic PostgreSQL database for bench/scale.py, built once and kept under a version name.

Two hundred properties over 365 days: 250,000 conversations, each with one conversation grade and
three turn grades (1,000,000 machine grades, plus 5,000 regrades so "latest grade" matters), about
52,000 human acts (👍, 👎, corrections, notes, retractions) with their fixtures, and about 187,000
Slack posts. Grade texts, levels and dimensions are copied from real grading output (the generated
corpus of bench/grade_corpus.py, graded by Cerebrus), so the JSON a read would parse is the real size.
Rows are made by `INSERT … SELECT … FROM generate_series` inside PostgreSQL: minutes, not hours.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grade_corpus import build_corpus
from sqlalchemy import Engine, create_engine, text

from gradecore.model.contract import parse_conversation
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.store import Store
from smith.ingest import Ingestor

VERSION = "scale_v2"  # the schema's name: change it when the data below changes
PROPERTIES = 200
DAYS = 365
CONVERSATIONS = 250_000
TURNS_PER_CONVERSATION = 3
REGRADED_EVERY = 50  # one conversation in 50 is graded twice (re-sent when it grew)
GRADERS = 50
ACTS = 50_000  # plus one retraction per 25 acts: ~52,000 verdicts
POSTED_EVERY = 4  # one conversation in four has a parent post and two turn replies
START = datetime(2025, 12, 1, tzinfo=UTC)
ZONES = ("America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York", "UTC")


@dataclass(frozen=True)
class ScaleDatabase:
    url: str  # the benchmark's own database, with search_path set to the version's schema
    schema: str
    built_seconds: float | None  # None when an earlier run's database was reused


def ensure_database(admin_url: str, database: str) -> str:
    """CREATE DATABASE `database` next to `admin_url`'s if missing; return its URL."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": database})
        if exists.first() is None:
            connection.execute(text(f'CREATE DATABASE "{database}"'))
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + f"/{database}"


def open_scale_database(database_url: str, *, rebuild: bool = False) -> ScaleDatabase:
    """The cached database when its schema is complete, else built now (a few minutes)."""
    schema = VERSION
    url = f"{database_url}?options=-csearch_path%3D{schema}"
    root = create_engine(database_url, isolation_level="AUTOCOMMIT")
    with root.connect() as connection:
        done = connection.execute(
            text(
                "SELECT 1 FROM information_schema.tables"
                " WHERE table_schema = :s AND table_name = 'bench_built'"
            ),
            {"s": schema},
        ).first()
        if done is not None and not rebuild:
            root.dispose()
            # Built by an earlier version: brought up to the code's revisions (new columns, new indexes).
            migrating = create_db_engine(url)
            upgrade(migrating)
            migrating.dispose()
            return ScaleDatabase(url, schema, None)
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    root.dispose()
    started = time.perf_counter()
    migrating = create_db_engine(url)
    upgrade(migrating)
    migrating.dispose()
    engine = create_engine(url)  # without the application's statement timeout: one INSERT takes minutes
    _fill(engine)
    engine.dispose()
    return ScaleDatabase(url, schema, time.perf_counter() - started)


def real_grade_templates(conversations: int = 400) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Conversation and turn grades exactly as ingest stores them, from graded corpus conversations."""
    documents, _ = build_corpus(turns=conversations * 3)
    with tempfile.TemporaryDirectory() as folder:
        engine = create_db_engine(f"sqlite:///{Path(folder) / 'templates.db'}")
        upgrade(engine)
        ingestor = Ingestor(Store(engine), post=False)
        for raw in documents[:conversations]:
            ingestor.ingest(parse_conversation(raw))
        columns = "item_type, source, rubric_version, level, headline, reason, owner, dimensions, citations"
        with engine.connect() as connection:
            rows = [
                dict(row._mapping)
                for row in connection.execute(text(f"SELECT {columns} FROM machine_grades"))
            ]
        engine.dispose()
    for row in rows:
        for name in ("dimensions", "citations"):
            value = row[name]
            row[name] = value if isinstance(value, str) else json.dumps(value)
    return [r for r in rows if r["item_type"] == "conversation"], [
        r for r in rows if r["item_type"] == "turn"
    ]


def _fill(engine: Engine) -> None:
    conversation_templates, turn_templates = real_grade_templates()
    with engine.begin() as connection:
        run = connection.execute
        for table, templates in (
            ("bench_conversation_tpl", conversation_templates),
            ("bench_turn_tpl", turn_templates),
        ):
            run(text(f"CREATE TABLE {table} (k int PRIMARY KEY, {_TEMPLATE_COLUMNS})"))
            run(
                text(
                    f"INSERT INTO {table} VALUES (:k, :level, :headline, :reason, :owner, :source,"
                    " :rubric_version, CAST(:dimensions AS json), CAST(:citations AS json))"
                ),
                [dict(template, k=k) for k, template in enumerate(templates)],
            )
        params = {
            "start": START,
            "n": CONVERSATIONS,
            "props": PROPERTIES,
            "span": DAYS * 86_400,
            "kc": len(conversation_templates),
            "kt": len(turn_templates),
            "turns": TURNS_PER_CONVERSATION,
            "regraded": REGRADED_EVERY,
            "graders": GRADERS,
            "acts": ACTS,
            "posted": POSTED_EVERY,
        }
        for statement in _STATEMENTS:
            run(text(statement), {k: v for k, v in params.items() if f":{k}" in statement})
        run(text("CREATE TABLE bench_built (built_at timestamptz)"))
        run(text("INSERT INTO bench_built VALUES (now())"))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM ANALYZE"))


_TEMPLATE_COLUMNS = (
    "level text, headline text, reason text, owner text, source text, rubric_version text,"
    " dimensions json, citations json"
)

# A conversation i: its property (one in twenty goes to the busy property p000), when it was graded
# (spread evenly over the year, at a pseudo-random second), and its templates.
_CONVERSATIONS = """
CREATE TABLE bench_conversations AS
SELECT i,
       'c' || lpad(i::text, 7, '0') AS conversation_id,
       'p' || lpad((CASE WHEN i % 20 = 0 THEN 0 ELSE (i * 7919) % :props END)::text, 3, '0') AS property_id,
       CAST(:start AS timestamptz) + make_interval(secs => (i::bigint * :span) / :n
           + (i * 37) % 600) AS graded_at
FROM generate_series(0, :n - 1) AS i
"""

_STATEMENTS: tuple[str, ...] = (
    _CONVERSATIONS,
    "CREATE UNIQUE INDEX ON bench_conversations (i)",
    f"""
    INSERT INTO properties (id, name, timezone, locale, slack_channel_id, created_at, updated_at)
    SELECT 'p' || lpad(p::text, 3, '0'), 'Property ' || p,
           (ARRAY{list(ZONES)!r})[1 + p % {len(ZONES)}], CASE WHEN p % 4 = 0 THEN 'es' ELSE 'en' END,
           'C' || lpad(p::text, 8, '0'), CAST(:start AS timestamptz) - interval '30 days',
               CAST(:start AS timestamptz)
    FROM generate_series(0, :props - 1) AS p
    """,
    """
    INSERT INTO users (email, name, role, active, created_at)
    SELECT 'grader' || g || '@example.test', 'Grader ' || g, 'staff', true, CAST(:start AS timestamptz)
    FROM generate_series(1, :graders) AS g
    """,
    """
    INSERT INTO conversation_records (conversation_id, property_id, content_hash, document,
        received_at, settled_at)
    SELECT conversation_id, property_id, md5(conversation_id), json_build_object('conversation_id',
        conversation_id),
           graded_at, graded_at
    FROM bench_conversations
    """,
    # Conversation grades: one each, and a second (one hour later, another template) for one in 50.
    """
    INSERT INTO machine_grades (id, item_type, item_ref, conversation_id, turn_id, property_id, source,
        rubric_version, content_hash, level, headline, reason, owner, dimensions, citations, usage,
            created_at)
    SELECT md5(c.conversation_id || ':' || r)::uuid::text, 'conversation', c.conversation_id,
        c.conversation_id, NULL,
           c.property_id, t.source, t.rubric_version, md5(c.conversation_id || r), t.level,
               t.headline, t.reason,
           t.owner, t.dimensions, t.citations, NULL, c.graded_at + make_interval(hours => r)
    FROM bench_conversations c
    CROSS JOIN generate_series(0, 1) AS r
    JOIN bench_conversation_tpl t ON t.k = (c.i + 7 * r) % :kc
    WHERE r = 0 OR c.i % :regraded = 0
    """,
    """
    INSERT INTO machine_grades (id, item_type, item_ref, conversation_id, turn_id, property_id, source,
        rubric_version, content_hash, level, headline, reason, owner, dimensions, citations, usage,
            created_at)
    SELECT md5(c.conversation_id || ':' || 't' || n)::uuid::text, 'turn', c.conversation_id || '/t' || n,
           c.conversation_id, 't' || n, c.property_id, t.source, t.rubric_version,
               md5(c.conversation_id || 't' || n),
           t.level, t.headline, t.reason, t.owner, t.dimensions, t.citations, NULL, c.graded_at
    FROM bench_conversations c
    CROSS JOIN generate_series(1, :turns) AS n
    JOIN bench_turn_tpl t ON t.k = (c.i * :turns + n) % :kt
    """,
    # Acts: a 👍, 👎, correction or note on a conversation's grade or one of its turns', hours later.
    """
    CREATE TABLE bench_acts AS
    SELECT a, c.conversation_id, c.property_id,
           CASE WHEN a % 3 = 0 THEN NULL ELSE 't' || (1 + a % :turns) END AS turn_id,
           1 + a % :graders AS grader,
           CASE WHEN a % 20 < 10 THEN 'up' WHEN a % 20 < 14 THEN 'down' WHEN a % 20 < 19 THEN 'correction'
                ELSE 'note' END AS kind,
           c.graded_at + make_interval(hours => 1 + a % 47) AS acted_at
    FROM generate_series(0, :acts - 1) AS a
    JOIN bench_conversations c ON c.i = (a::bigint * :n) / :acts
    """,
    """
    INSERT INTO grade_verdicts (grader_user_id, item_type, item_ref, conversation_id, turn_id, property_id,
        signal, expected_level, note, principles, error_class, machine_grade_id,
            machine_grade_at_time, origin,
        retracts_id, act_key, slack_channel, slack_ts, slack_event_id, created_at)
    SELECT a.grader, g.item_type, g.item_ref, a.conversation_id, a.turn_id, a.property_id,
           CASE WHEN a.kind = 'note' THEN 'correction' ELSE a.kind END,
           CASE a.kind WHEN 'up' THEN g.level
                       WHEN 'correction' THEN (ARRAY['pass','repair','hold','block'])[1 + a.a % 4] END,
           CASE WHEN a.kind IN ('correction', 'note') THEN 'a written reply' END,
           CAST('[]' AS json),
           CASE a.kind WHEN 'up' THEN 'clara' WHEN 'down' THEN 'grader'
                       WHEN 'correction' THEN (ARRAY['grader','ours','clara'])[1 + a.a % 3] END,
           g.id,
           json_build_object('id', g.id, 'level', g.level, 'source', g.source, 'rubric_version',
               g.rubric_version,
                             'headline', g.headline, 'owner', g.owner),
           'slack_reaction', NULL, 'bench:act:' || a.a, NULL, NULL, NULL, a.acted_at
    FROM bench_acts a
    JOIN machine_grades g
      ON g.id = CASE WHEN a.turn_id IS NULL THEN md5(a.conversation_id || ':' || '0')::uuid::text
                     ELSE md5(a.conversation_id || ':' || a.turn_id)::uuid::text END
    ORDER BY a.acted_at, a.a
    """,
    # One act in 25 taken back ten minutes later (a removed reaction).
    """
    INSERT INTO grade_verdicts (grader_user_id, item_type, item_ref, conversation_id, turn_id, property_id,
        signal, expected_level, note, principles, error_class, machine_grade_id,
            machine_grade_at_time, origin,
        retracts_id, act_key, created_at)
    SELECT v.grader_user_id, v.item_type, v.item_ref, v.conversation_id, v.turn_id, v.property_id,
           'retraction', NULL, NULL, CAST('[]' AS json), NULL, v.machine_grade_id, v.machine_grade_at_time,
           v.origin, v.id, v.act_key || ':' || 'removed', v.created_at + interval '10 minutes'
    FROM grade_verdicts v WHERE v.id % 25 = 0
    """,
    # The sweep's ledger: every act naming a level has its fixture, except the last day's.
    """
    INSERT INTO fixtures (verdict_id, kind, path, content_hash, status, detail, attempts, created_at)
    SELECT v.id, COALESCE(v.error_class, 'grader'), 'fixtures/' || v.id || '.json',
        md5(v.id::text), 'written',
           NULL, 0, v.created_at + interval '1 day'
    FROM grade_verdicts v
    WHERE v.expected_level IS NOT NULL
      AND v.created_at < CAST(:start AS timestamptz) + make_interval(days => 364)
    """,
    # Posts: a parent per conversation in four, a reply per turn of it, all delivered long ago.
    """
    INSERT INTO slack_posts (kind, operation, idempotency_key, property_id, conversation_id, turn_id,
        machine_grade_id, channel, parent_post_id, thread_ts, payload, status, attempts,
            last_error, ambiguous,
        lookups_failed, lease_owner, lease_until, ts, next_attempt_at, created_at, updated_at)
    SELECT CASE WHEN n = 0 THEN 'conversation' ELSE 'turn' END, 'post',
           'bench:' || c.conversation_id || ':' || n, c.property_id, c.conversation_id,
           CASE WHEN n = 0 THEN NULL ELSE 't' || n END, NULL,
           'C00000' || substr(c.property_id, 2), NULL, NULL,
           json_build_object('text', repeat('A graded conversation, as staff see it. ', 40),
                             'blocks', json_build_array(json_build_object('type', 'section', 'text',
                               json_build_object('type', 'mrkdwn', 'text', repeat('evidence · ', 60))))),
           'posted', 1, NULL, false, 0, NULL, NULL,
           extract(epoch FROM c.graded_at)::bigint || '.' || lpad(n::text, 6, '0'),
           c.graded_at, c.graded_at, c.graded_at
    FROM bench_conversations c
    CROSS JOIN generate_series(0, 2) AS n
    WHERE c.i % :posted = 0
    """,
)
