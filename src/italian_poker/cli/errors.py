"""How the command line reports errors: one line on standard error, exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from italian_poker.engine.vocabulary import Language

_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
"""Click's base of usage errors (Typer's own copy of Click in recent Typer, else Click's)."""


class OneLineErrors(TyperGroup):
    """The commands, with usage errors (a bad number, an unknown option, a missing argument)
    printed as one line, ``error: ... (see: italian-poker CMD --help)``, exit code 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        names = (args, prog_name, complete_var)
        if not standalone_mode:
            return super().main(*names, False, windows_expand_args, **extra)
        try:
            code = super().main(*names, False, windows_expand_args, **extra)
        except _CLICK_ERROR as error:
            _usage_error(error)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _usage_error(error: Any) -> NoReturn:
    """Print a Click error on one line and exit with its code (2 for usage errors)."""
    if type(error).__name__ == "NoArgsIsHelpError":  # no command: the help is the message
        if error.format_message():  # with rich, the help is already printed
            error.show()
        sys.exit(error.exit_code)
    text = " ".join(str(error.format_message()).split()).rstrip(".")
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    ctx = getattr(error, "ctx", None)
    text += f" (see: {'italian-poker' if ctx is None else ctx.command_path} --help)"
    typer.echo(f"error: {text}", err=True)
    sys.exit(error.exit_code)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit (code 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


def fail_in(language: Language, frame: str, message: str, /, **values: object) -> typer.Exit:
    """Print the analysis commands' ``message`` in ``language``, inside the command's error line
    ``frame``, and return the exit (code 2) to raise."""
    from italian_poker.analysis.i18n import tr

    typer.echo(tr(language, frame, message=tr(language, message, **values)), err=True)
    return typer.Exit(code=2)
