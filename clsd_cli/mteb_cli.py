"""``clsd mteb ARGS...``: mteb's own command line, with the CLSD tasks and benchmarks registered.

mteb has no plugin hook for its command line, so this command imports :mod:`clsd_mteb` (which
registers the tasks and benchmarks) and then calls mteb's console entry point with ``ARGS`` unchanged:
``clsd mteb available-tasks``, ``clsd mteb run -b CLSD -m MODEL``, ``clsd mteb --help`` (mteb's help).
Only typer is imported at module level; mteb loads when the command runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

app = typer.Typer(add_completion=False)

PROG = "clsd mteb"


@app.command(
    "mteb",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,  # `clsd mteb --help` is mteb's help
)
def mteb_command(ctx: typer.Context) -> None:
    """Run mteb's own command line with CLSD registered.

    The arguments go to mteb unchanged, e.g. `clsd mteb available-tasks`, `clsd mteb run -b CLSD -m MODEL`;
    `clsd mteb --help` shows mteb's help.
    """
    run_mteb(ctx.args)


def run_mteb(args: Sequence[str]) -> None:
    """Call mteb's console entry point (``mteb.cli.main``) on ``args`` once CLSD is registered with mteb."""
    from mteb.cli import main

    import clsd_mteb  # noqa: F401  # registers the CLSD tasks and benchmarks with mteb

    saved = sys.argv
    sys.argv = [PROG, *(args or ["--help"])]  # mteb reads its arguments from sys.argv; with none, its help
    try:
        main()
    finally:
        sys.argv = saved
