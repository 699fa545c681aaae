# Agent Smith: `smith serve` (ingest, Slack events, the relay, the scheduler) in one container.
#   docker compose up          # with PostgreSQL, from compose.yaml
# The image installs the runtime lock (requirements/runtime.txt, hashes checked), then the project
# itself without dependencies; it runs as an unprivileged user and keeps its files in /data.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
# The locked dependencies first: this layer is rebuilt only when the lock changes.
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --require-hashes -r requirements/runtime.txt

COPY pyproject.toml README.md app.py scheduler.py smith_cli.py ./
COPY gradecore gradecore
COPY cerebrus cerebrus
COPY smith smith
COPY blocks blocks
COPY handlers handlers
RUN pip install --no-deps . \
    && python -m compileall -q /usr/local/lib/python3.11/site-packages

RUN useradd --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin smith \
    && mkdir /data && chown smith:smith /data
USER 10001
# The SQLite default, the fixture drafts and the markdown tickets are written here.
WORKDIR /data

ENV SMITH_HOST=0.0.0.0 \
    SMITH_PORT=3000 \
    SMITH_LOG_FORMAT=json
EXPOSE 3000

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('SMITH_PORT', '3000') + '/healthz', timeout=4)"]

# Migrations first (idempotent; concurrent replicas wait on alembic's lock), then the server as PID 1's
# replacement, so `docker stop` (SIGTERM) reaches smith and it drains its work before exiting.
CMD ["sh", "-c", "smith db upgrade && exec smith serve"]
