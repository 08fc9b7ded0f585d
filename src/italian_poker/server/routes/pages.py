"""The pages: the lobby (``/``), a group's statistics (``/stats``), a table's page
(``/t/{invite}``), the fair-deck verifier (``/verify``), the hand replayer
(``/t/{invite}/hands/{hand}``) and the pages' words (``/api/strings/{lang}``). The static files
are mounted by ``create_app``."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, PlainTextResponse, Response

from italian_poker.engine.vocabulary import Language
from italian_poker.server.dependencies import ServerDep
from italian_poker.server.errors import ApiError
from italian_poker.server.i18n import page_strings
from italian_poker.server.limits import MAX_INT, whole_number

STATIC = Path(__file__).parent.parent / "static"
STRINGS = {lang.value: json.dumps(page_strings(lang), ensure_ascii=False) for lang in Language}
"""``GET /api/strings/{lang}``: every word of the browser's pages, from the server's
catalogue, as JSON text (built once)."""

router = APIRouter(include_in_schema=False)


def page(name: str, status: int = 200) -> Response:
    """The HTML page ``name`` of the static files, never cached."""
    path = STATIC / name
    if not path.is_file():
        return PlainTextResponse(f"{name} is missing from the server's static files", 404)
    return FileResponse(path, status, media_type="text/html", headers={"Cache-Control": "no-store"})


async def found(lookup: Awaitable[object | None]) -> int:
    """The status of a table's page: 200 when ``lookup`` finds it, 404 when not, or the
    lookup's refusal (410 for an expired table, 503 with no room for it)."""
    try:
        return 200 if await lookup is not None else 404
    except ApiError as error:
        return error.status


@router.get("/")
async def index() -> Response:
    return page("index.html")


@router.get("/stats")
async def group_stats_page() -> Response:
    # The page reads the browser's seats and asks POST /api/stats with their tokens.
    return page("group_stats.html")


@router.get("/verify")
async def verify_page() -> Response:
    # Static: the page checks the histories dropped on it in the browser (fairness.js).
    return page("verify.html")


@router.get("/t/{invite}")
async def table_page(invite: str, server: ServerDep) -> Response:
    # The page says itself that there is no such table; the status says it too.
    return page("table.html", await found(server.find(invite)))


@router.get("/t/{invite}/hands/{hand}")
async def replay_page(invite: str, hand: str, server: ServerDep) -> Response:
    # The page asks for the hand's frames with the seat's token, and says what is wrong.
    try:
        whole_number(hand, 1, MAX_INT, "a hand", text=True)
    except ValueError:
        return page("replay.html", 404)
    return page("replay.html", await found(server.find(invite)))


@router.get("/manifest.webmanifest")
async def manifest() -> Response:
    # The installable app: its name, icons and colours.
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/sw.js")
async def service_worker() -> Response:
    # At the root, so that it may keep the page shell for every page of the site.
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/api/strings/{lang}")
async def strings(lang: str) -> Response:
    # The pages' words (static/i18n.js looks them up): one copy, the server's catalogue.
    text = STRINGS.get(lang)
    if text is None:
        raise ApiError(404, "no_language", "the pages' strings exist in 'en' and 'it' only")
    return Response(text, media_type="application/json", headers={"Cache-Control": "no-cache"})
