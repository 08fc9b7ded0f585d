"""Where the game keeps its files: the data directory, the same for every front end.

The data directory follows the platform's conventions (``platformdirs.user_data_path``, e.g.
``~/.local/share/italian-poker`` on Linux); the environment variable
``ITALIAN_POKER_DATA_DIR`` overrides it. The terminal game keeps its hand histories there,
the online server its database (unless configured otherwise).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from platformdirs import user_data_path

DATA_DIR_VARIABLE = "ITALIAN_POKER_DATA_DIR"
"""Environment variable naming the data directory (tests and portable installs)."""

APP_NAME = "italian-poker"
"""The program's name: its command and the name of its data directory."""


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The game's data directory: ``$ITALIAN_POKER_DATA_DIR`` if set, else the platform's."""
    env = os.environ if environ is None else environ
    override = env.get(DATA_DIR_VARIABLE, "")
    if override:
        return Path(override).expanduser()
    return user_data_path(APP_NAME)
