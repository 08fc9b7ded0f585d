"""A real Redis for the tests that need one: a ``redis-server`` started for the test session
on a unix socket (no TCP port, nothing saved to disk), and a ``redis.asyncio`` client on it,
emptied before each test. Without the binary those tests are skipped, saying how to run them;
with ``ITALIAN_POKER_REQUIRE_REDIS=1`` (CI) they fail instead."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis
import redis.asyncio

REQUIRE_REDIS_VARIABLE = "ITALIAN_POKER_REQUIRE_REDIS"
REDIS_SKIP_REASON = "install redis-server to run the Redis tests"
REDIS_START_SECONDS = 10.0


def _redis_server() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None
    )


@pytest.fixture(scope="session")
def redis_socket() -> Iterator[Path]:
    """The unix socket of a ``redis-server`` running for the whole test session."""
    binary = _redis_server()
    if binary is None:
        if os.environ.get(REQUIRE_REDIS_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_REDIS_VARIABLE}=1 but redis-server is not installed")
        pytest.skip(REDIS_SKIP_REASON)
    # A short folder of its own: a unix socket's path is limited to about 100 bytes.
    folder = Path(tempfile.mkdtemp(prefix="ip-redis-"))
    socket = folder / "redis.sock"
    command = [binary, "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_until_ready(process, socket, folder / "redis.log")
        yield socket
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_ready(process: subprocess.Popen[bytes], socket: Path, log: Path) -> None:
    """Return once the server answers PING; fail with its log if it exits or never does."""
    deadline = time.monotonic() + REDIS_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"redis-server exited with {process.returncode}: {log.read_text()}")
        if socket.exists():
            client = redis.Redis(unix_socket_path=str(socket), socket_timeout=1)
            try:
                if client.ping():
                    return
            except redis.RedisError:
                pass
            finally:
                client.close()
        time.sleep(0.02)
    pytest.fail(f"redis-server did not answer PING within {REDIS_START_SECONDS:g} s")


@pytest.fixture
async def redis_client(redis_socket: Path) -> AsyncIterator[redis.asyncio.Redis]:
    """A client on the session's Redis, emptied first (``decode_responses=True``)."""
    client = redis.asyncio.Redis(unix_socket_path=str(redis_socket), decode_responses=True)
    await client.flushall()
    try:
        yield client
    finally:
        await client.aclose()
