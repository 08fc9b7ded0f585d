"""Keep tokens out of the server's log lines.

Tokens travel only in the ``Authorization`` header and the WebSocket's ``hello`` message,
which nothing logs. A client may still put one in a URL (an old client's ``?token=``, a
link copied with one): uvicorn prints the request line with its query string on its access
logger, and the WebSocket handshake line on its error logger. The server takes no query
parameters at all, so :class:`RedactQueries`, on both loggers, cuts every query string (and
fragment) out of their records before any handler formats them.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error")
"""uvicorn's loggers that print request paths."""

_QUERY = re.compile(r"(/[^\s\"?#]*)[?#][^\s\"]*")


def redact(text: str) -> str:
    """``text`` with the query string and fragment of every path or URL in it replaced."""
    if "?" not in text and "#" not in text:
        return text
    return _QUERY.sub(lambda match: f"{match.group(1)}?{REDACTED}", text)


class RedactQueries(logging.Filter):
    """A filter that removes query strings from a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict) and args:
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


_FILTER = RedactQueries()


def keep_tokens_out_of_logs() -> None:
    """Put the filter on uvicorn's loggers, once (``logging.config.dictConfig``, which
    uvicorn runs at its start, keeps a logger's filters)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
