"""The terminal game leaves when its terminal closes. A hang-up signal reaches only the
terminal's first process; run by another one (``make play``, a shell script), the game got
none and spun on the dead terminal at full speed for ever (found in tmux: the game outlived
its window by 20 minutes at 100% CPU). Played in a real pseudo-terminal, as a player runs it."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from italian_poker.play.app import TERMINAL_CHECK_SECONDS
from italian_poker.table.paths import DATA_DIR_VARIABLE

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux pseudo-terminals")

GAME = Path(sys.executable).with_name("italian-poker")

LEADER = """
import signal, subprocess, sys
signal.signal(signal.SIGHUP, lambda signum, frame: None)
game = subprocess.Popen(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(game.pid))
sys.exit(game.wait())
"""
"""The terminal's first process, as ``make`` is: it starts the game, catches the hang-up
(the kernel sends it to this process only) and waits for the game to end."""


def take_terminal() -> None:
    """In the child: make the pseudo-terminal (standard input) its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def read_until(master: int, text: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"the game did not show {text!r}; it showed {seen[-500:]!r}"
        if select.select([master], [], [], left)[0]:
            seen += os.read(master, 65536)
    return seen


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[1][0] != "Z"  # a zombie has ended


def test_the_game_leaves_when_its_terminal_closes_under_another_process(
    tmp_path: Path,
) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x28\x00\x78\x00\x00\x00\x00\x00")  # 40 x 120
    pid_file = tmp_path / "game.pid"
    environment = os.environ | {DATA_DIR_VARIABLE: str(tmp_path / "data"), "TERM": "xterm"}
    leader = subprocess.Popen(
        [sys.executable, "-c", LEADER, str(pid_file), str(GAME), "play", "--seed", "3"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=environment,
        start_new_session=True,
        preexec_fn=take_terminal,
    )
    os.close(slave)
    game = 0
    try:
        read_until(master, b"Blind", 60.0)  # the table is up
        game = int(pid_file.read_text())
        os.close(master)  # the window closes
        deadline = time.monotonic() + 5 * TERMINAL_CHECK_SECONDS + 5
        while alive(game):
            assert time.monotonic() < deadline, "the game outlived its terminal"
            time.sleep(0.1)
        assert leader.wait(10) == 0  # the game ended cleanly (the leader exits with its code)
    finally:
        for pid in (game, leader.pid):
            if pid and alive(pid):
                os.kill(pid, 9)
        leader.wait(10)
