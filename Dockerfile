# tracebot: slim Python base, non-root user, dependencies from pyproject's pinned ranges,
# the shipped record set included.
FROM python:3.11-slim AS app

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TRACEBOT_DB=/data/tracebot.db

RUN useradd --create-home --uid 10001 tracebot \
    && mkdir -p /data && chown tracebot:tracebot /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY records ./records
COPY storage ./storage
RUN pip install --no-cache-dir .

USER tracebot
VOLUME ["/data"]

# Load (or refresh) the shipped records, then run the bot. Imports are upserts: a restart is cheap.
CMD ["sh", "-c", "tracebot records import /app/records/data && exec tracebot run"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["tracebot", "health"]
