"""No token, seat or host, appears in any line the server logs: a real uvicorn server (as
``italian-poker serve`` runs it, with its default logging) is sent requests that carry tokens
in every place a client might put them, and every record of its access and error loggers is
read back."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx2 as httpx
import pytest
import uvicorn
from server_fixtures import bot_factory, passive_action, wait_until
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect as ws_connect

from italian_poker.server.app import create_app
from italian_poker.server.logs import redact
from italian_poker.server.settings import ServerSettings

LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "italian_poker")


class Capture(logging.Handler):
    """Every record, formatted as uvicorn's own handlers would print it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        if record.exc_info:
            self.lines.append(logging.Formatter().formatException(record.exc_info))


@dataclass
class Running:
    base: str
    capture: Capture


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def running(database_url: str) -> Iterator[Running]:
    """The server in a thread, logging at ``info`` with uvicorn's default configuration (the
    access log on); the capture is attached once it has configured its loggers."""
    port = free_port()
    settings = ServerSettings(
        database_url=database_url,
        port=port,
        bot_delay_seconds=0.0,
        next_deal_seconds=0.0,
        default_turn_seconds=None,
        seed=3,
    )
    config = uvicorn.Config(
        create_app(settings, bot_factory), host="127.0.0.1", port=port, log_level="info"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    capture = Capture()
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addHandler(capture)
    try:
        yield Running(f"http://127.0.0.1:{port}", capture)
    finally:
        for logger in loggers:
            logger.removeHandler(capture)
        server.should_exit = True
        thread.join(timeout=10)


def test_no_token_appears_in_the_servers_log_lines(running: Running) -> None:
    base, origin = running.base, {"Origin": running.base}
    ws_base = base.replace("http://", "ws://")
    with httpx.Client(base_url=base) as http:
        table = http.post("/api/tables", json={"host_nickname": "Anna", "turn_seconds": None})
        table.raise_for_status()
        created = table.json()
        invite, host, mine = created["invite"], created["host_token"], created["player_token"]
        other = http.post(f"/api/tables/{invite}/seats", json={"nickname": "Bruno"}).json()
        theirs = other["player_token"]
        tokens = {"host": host, "player": mine, "other player": theirs}
        auth = {"Authorization": f"Bearer {host}"}
        assert http.post(f"/api/tables/{invite}/start", headers=auth).status_code == 200
        assert http.get(f"/api/tables/{invite}/ledger", headers=auth).status_code == 200
        # Clients that put tokens in the URL: the query, a fragment sent by mistake, paths.
        for path in (
            f"/api/tables/{invite}/histories?token={mine}",
            f"/api/tables/{invite}/ledger?x=1&token={host}&y=2",
            f"/api/tables/{invite}?{theirs}",
            f"/api/tables/{invite}/histories?access_token={mine}#frag",
            f"/t/{invite}?token={host}",
            f"/?token={mine}",
        ):
            assert http.get(path).status_code < 500
    # The WebSocket, the old way (?token=, now refused) and the right way (hello).
    with ws_connect(f"{ws_base}/ws/tables/{invite}?token={mine}", additional_headers=origin) as ws:
        refused = json.loads(ws.recv(timeout=5))
        assert refused["type"] == "error" and refused["code"] == "token_in_url"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    with ws_connect(f"{ws_base}/ws/tables/{invite}", additional_headers=origin) as ws:
        ws.send(json.dumps({"type": "hello", "token": theirs}))
        assert json.loads(ws.recv(timeout=5))["type"] == "chat_log"  # the chat, then the state
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
    with pytest.raises(InvalidStatus), ws_connect(f"{ws_base}/ws/tables/{invite}?token={host}"):
        pass  # no Origin: refused, 403
    wait_until(  # the last lines are written after the response: the refusal's is the last
        lambda: any(
            "WebSocket /ws/tables/" in line and line.endswith(" 403")
            for line in running.capture.lines
        ),
        "the refused WebSocket's log line",
    )
    lines = running.capture.lines
    assert any("/histories?" in line for line in lines), lines  # the requests were logged
    assert any("WebSocket /ws/tables/" in line for line in lines), lines
    for line in lines:
        for who, token in tokens.items():
            assert token not in line, f"the {who} token is in the log line {line!r}"


def test_a_token_in_the_websocket_url_is_refused(running: Running) -> None:
    with httpx.Client(base_url=running.base) as http:
        created = http.post("/api/tables", json={"host_nickname": "Anna"}).json()
    url = f"{running.base.replace('http', 'ws')}/ws/tables/{created['invite']}"
    with ws_connect(
        f"{url}?token={created['player_token']}", additional_headers={"Origin": running.base}
    ) as ws:
        message = json.loads(ws.recv(timeout=5))
        assert message["type"] == "error" and message["code"] == "token_in_url"
        assert "hello" in message["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ('127.0.0.1:5 - "GET /api/tables/SECRET/histories?token=SECRET HTTP/1.1" 200', "/api/"),
        ('127.0.0.1:5 - "WebSocket /ws/tables/SECRET?token=SECRET" [accepted]', "/ws/tables/"),
        ('127.0.0.1:5 - "WebSocket /ws/watch/SECRET" [accepted]', "/ws/watch/["),
        ('127.0.0.1:5 - "GET /t/SECRET HTTP/1.1" 200', "/t/["),
        ('127.0.0.1:5 - "GET /w/SECRET/ HTTP/1.1" 404', "/w/["),
        ("hello {'type': 'hello', 'token': 'SECRET'}", "hello"),
        ('{"player_token": "SECRET", "seat": 1}', "seat"),
        ("Authorization: Bearer SECRET", "Bearer"),
        ("/a?SECRET", "/a?"),
        ("http://x/y?a=1&b=SECRET#SECRET", "http://x/y?"),
    ],
)
def test_redaction_cuts_every_secret(line: str, kept: str) -> None:
    redacted = redact(line)
    assert "SECRET" not in redacted and kept in redacted


def _play_a_deal(ws_base: str, invite: str, tokens: dict[int, str], origin: str) -> None:
    """The seats of ``tokens`` play passively over the table's WebSocket until a deal has
    ended (a ``state`` of the next deal, or a finished one)."""
    with contextlib.ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(
                ws_connect(f"{ws_base}/ws/tables/{invite}", additional_headers={"Origin": origin})
            )
            for seat in tokens
        }
        for seat, ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        first_hand: int | None = None
        for _ in range(2000):
            for seat, ws in sockets.items():
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message.get("type") != "state":
                    continue
                hand = message.get("hand")
                if hand is not None and first_hand is None:
                    first_hand = hand
                if first_hand is not None and hand is not None and hand > first_hand:
                    return
                state = message["state"]
                if state.get("to_act") == seat and state.get("legal"):
                    action = passive_action(message)
                    ws.send(
                        json.dumps(
                            {
                                "type": "action",
                                "hand": hand,
                                "seq": message["seq"],
                                "action": action,
                            }
                        )
                    )
        pytest.fail("the deal did not end")


def test_a_whole_session_leaves_no_secret_in_the_logs(running: Running) -> None:
    base = running.base
    ws_base = base.replace("http://", "ws://")
    origin = {"Origin": base}
    with httpx.Client(base_url=base) as http:
        created = http.post(
            "/api/tables",
            json={"host_nickname": "Anna", "seats": 2, "turn_seconds": None, "watch": True},
        )
        assert created.status_code == 201, created.text
        table = created.json()
        invite, watch = table["invite"], table["watch"]
        host, anna = table["host_token"], table["player_token"]
        assert http.get(f"/t/{invite}").status_code == 200
        assert http.get(f"/api/tables/{invite}").status_code == 200
        bruno = http.post(f"/api/tables/{invite}/seats", json={"nickname": "Bruno"}).json()
        secrets_issued = {
            "invite": invite,
            "watch code": watch,
            "host token": host,
            "Anna's token": anna,
            "Bruno's token": bruno["player_token"],
        }
        assert http.get(f"/w/{watch}").status_code == 200
        with ws_connect(f"{ws_base}/ws/watch/{watch}", additional_headers=origin) as spectator:
            assert json.loads(spectator.recv(timeout=5))["type"] == "state"
            auth = {"Authorization": f"Bearer {host}"}
            assert http.post(f"/api/tables/{invite}/start", headers=auth).status_code == 200
            _play_a_deal(ws_base, invite, {0: anna, bruno["seat"]: bruno["player_token"]}, base)
        mine = {"Authorization": f"Bearer {anna}"}
        hands = http.get(f"/api/tables/{invite}/histories", headers=mine)
        assert hands.status_code == 200 and hands.json()["hands"], hands.text
        number = hands.json()["hands"][0]
        assert http.get(f"/api/tables/{invite}/histories/{number}.phh", headers=mine).is_success
        assert http.get(f"/api/tables/{invite}/ledger.csv", headers=auth).is_success
        # A client that puts secrets where they do not belong: the query, the path.
        assert http.get(f"/t/{invite}?token={host}").status_code < 500
        assert http.get(f"/api/tables/{host}").status_code == 404
        # The app's own loggers see what a record carries, secrets included, and redact it.
        logging.getLogger("italian_poker.server.bots").warning(
            "hello %s from /t/%s with Bearer %s", {"token": anna}, invite, host
        )
    wait_until(
        lambda: any("/ledger.csv" in line for line in running.capture.lines),
        "the download's log line",
    )
    lines = running.capture.lines
    assert any("WebSocket /ws/watch/" in line for line in lines), lines
    assert any("/histories/" in line for line in lines), lines
    for line in lines:
        for what, secret in secrets_issued.items():
            assert secret not in line, f"the {what} is in the log line {line!r}"
