"""Keep secrets out of the server's log lines.

The server's secrets are the tokens (host and player), the invites and the watch links'
codes: whoever holds one may act as its holder, take a seat or watch. Tokens travel only in
the ``Authorization`` header and the WebSocket's ``hello`` message, which nothing logs; but
an invite or a watch code is part of the path (``/t/<invite>``, ``/w/<code>``,
``/api/tables/<invite>/...``, ``/ws/tables/<invite>``, ``/ws/watch/<code>``), and a client may
still put a token in a URL (an old client's ``?token=``, a link copied with one). uvicorn
prints the request line on its access logger, and the WebSocket handshake line on its error
logger.

:class:`RedactSecrets` rewrites every record of uvicorn's loggers and of the server's own
(``italian_poker.*``) before any handler formats it: each such path segment becomes a short
hash in brackets (``/t/[3fa2b1c9]``: the lines of one table stay recognisable, and 32 bits of
a hash say nothing of a secret of 144 bits or more), every query string and fragment is cut
(the server takes no query parameters but ``?part=`` of the ledger's CSV), and a ``Bearer``
token or a ``token=`` / ``"token": ...`` value anywhere in a message becomes ``[redacted]``.
"""

from __future__ import annotations

import hashlib
import logging
import re

REDACTED = "[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "italian_poker")
"""The loggers the filter is put on (and every ``italian_poker.*`` logger there is)."""

KEEP_ARGUMENTS = frozenset({"uvicorn.access"})
"""Loggers whose records keep their arguments, each redacted on its own (uvicorn's access
formatter reads them one by one: the client, the method, the path, the status); every other
record is formatted into one line and the line redacted."""

_QUERY = re.compile(r"(/[^\s\"?#]*)[?#][^\s\"]*")
_SECRET_PATH = re.compile(r"(/(?:t|w|ws/tables|ws/watch|api/tables)/)([^/\s\"?#\[\]%]+)")
"""A path segment that holds a secret (never a ``%`` placeholder of a record's message)."""
_TOKEN = re.compile(r"(?i)(bearer\s+|token[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9_\-.~+/=]{4,}")


def short_hash(secret: str) -> str:
    """A secret as the logs show it: 8 hex digits of its SHA-256, in brackets."""
    return f"[{hashlib.sha256(secret.encode()).hexdigest()[:8]}]"


def redact(text: str) -> str:
    """``text`` with every secret in it replaced (see the module's docstring)."""
    if "?" in text or "#" in text:
        text = _QUERY.sub(lambda match: f"{match.group(1)}?{REDACTED}", text)
    if "/" in text:
        text = _SECRET_PATH.sub(lambda m: m.group(1) + short_hash(m.group(2)), text)
    if "oken" in text or "OKEN" in text or "earer" in text or "EARER" in text:
        text = _TOKEN.sub(lambda match: f"{match.group(1)}{REDACTED}", text)
    return text


def _redacted(value: object) -> object:
    """An argument of a record with its secrets replaced: a number or None as it is, anything
    else as its text (``%s``), redacted."""
    if value is None or isinstance(value, int | float):
        return value
    return redact(value if isinstance(value, str) else str(value))


class RedactSecrets(logging.Filter):
    """A filter that removes secrets from a record's message, arguments and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if args and record.name not in KEEP_ARGUMENTS:
            try:  # the whole line: a secret may be split between the message and an argument
                record.msg, record.args = redact(record.getMessage()), None
                args = None
            except (TypeError, ValueError):
                pass  # a message its arguments do not fit: each part on its own
        if isinstance(args, tuple) and args:
            record.args = tuple(_redacted(a) for a in args)
        elif isinstance(args, dict) and args:
            record.args = {k: _redacted(v) for k, v in args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_FILTER = RedactSecrets()


def keep_tokens_out_of_logs() -> None:
    """Put the filter on uvicorn's loggers and the server's, once each
    (``logging.config.dictConfig``, which uvicorn runs at its start, keeps a logger's
    filters). A logger's filter sees only what is logged on that logger, so every
    ``italian_poker.*`` logger known by then gets it too."""
    names = set(LOGGERS)
    names.update(
        name for name in list(logging.root.manager.loggerDict) if name.startswith("italian_poker.")
    )
    for name in sorted(names):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
