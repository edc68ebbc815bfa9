"""The generator's options that a command with plain typer parameters shares with ``clsd generate``
(``check-sample``, ``check-import``), as typed aliases read from the one declaration of each setting.

``clsd generate``, ``translate``, ``judge`` and ``build`` are made from their settings classes
(:mod:`clsd_cli.declared`); a command that takes one of those settings alone names the field here, so its help text,
panel and checks are those of the declaration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from clsd_cli.declared import option_of
from clsd_generation.run.settings import RunChoices

RunDir = Annotated[Path, option_of(RunChoices, "run_dir")]
