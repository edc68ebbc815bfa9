"""The ``OUT`` argument of every command that writes a new folder (``export-release``, ``export-results``,
``export-training``): one metavar and one check, so a wrong path stops each of them the same way before anything
loads, and a command says only what it writes there."""

from __future__ import annotations

from typing import Any

import typer

from clsd_format.folders import folder_callback

WRITE_FOLDER = folder_callback("folder to write into", may_be_missing=True)


def out_argument(help: str) -> Any:
    """A typer argument ``OUT``: a new (or empty) folder, checked by :data:`WRITE_FOLDER`; ``help`` says what goes in."""
    return typer.Argument(metavar="OUT", callback=WRITE_FOLDER, help=help)
