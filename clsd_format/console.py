"""The one error path of every CLSD command line: run a typer app, print a user's error as one line.

Every command raises :class:`~clsd_format.errors.CLSDError` for what the user can fix; this runner
prints it (status 2) and is the only place that does. An ``OSError`` the system raised (a folder
under a regular file, permission denied) is printed with its path, also with status 2; any other
exception is a bug: one line with its type and the ``--debug`` hint, status 1. It also keeps the
console to what a person needs: library warnings (deprecations, "you should train this model") and
library INFO logs are silenced unless ``--debug`` is on the command line or ``CLSD_DEBUG=1`` is set,
which also shows tracebacks. The error line, tracebacks and every log record the console shows are redacted
(:mod:`clsd_format.redaction`): an API key a server echoes never reaches the screen. It lives in the
dependency-light core so that ``clsd`` and each package's own ``python -m ...cli`` share it without
importing each other.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from clsd_format.redaction import install_log_filter, redact, redact_exception

DEBUG_ENV = "CLSD_DEBUG"
DEBUG_FLAG = "--debug"
USER_ERROR = 2  # exit status of what the user can act on (a CLSDError, a usage mistake, an OS error)
INTERNAL_ERROR = 1  # exit status of anything else: a bug, shown with how to see its traceback

# Our own loggers keep WARNING (e.g. "this CSV differs from the release"); these libraries' get ERROR.
QUIET_LIBRARIES = (
    "mteb",
    "sentence_transformers",
    "transformers",
    "datasets",
    "huggingface_hub",
    "torch",
    "urllib3",
    "httpx",
    "openai",
    "matplotlib",
    "stanza",
    "filelock",
    "fsspec",
)


def debug_requested(args: Sequence[str]) -> bool:
    """``--debug`` anywhere on the line, or ``CLSD_DEBUG`` set to something other than 0/empty."""
    return DEBUG_FLAG in args or os.environ.get(DEBUG_ENV, "").strip() not in ("", "0", "false", "no")


def configure_console(debug: bool) -> None:
    """Logging and warnings for a command-line run (never for library use: importing configures nothing)."""
    logging.basicConfig(level=logging.INFO if debug else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    install_log_filter(logging.getLogger().handlers)  # no API key or URL password reaches the console through a log record
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if debug:
        return
    if not sys.warnoptions:  # an explicit -W / PYTHONWARNINGS wins
        warnings.simplefilter("ignore")
        os.environ.setdefault("PYTHONWARNINGS", "ignore")  # worker processes too
    # Libraries that reset their loggers' level when first imported (after this runs) read these instead:
    # without them a failed download prints each of huggingface_hub's retries before our one line.
    for variable in ("TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY", "DATASETS_VERBOSITY"):
        os.environ.setdefault(variable, "error")
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(logging.ERROR)


def _is_usage_error(exc: BaseException) -> bool:
    """A ClickException (bad option, missing argument) from click or from typer's vendored click."""
    return any(cls.__name__ == "ClickException" for cls in type(exc).__mro__) and hasattr(exc, "show")


def _one_line(exc: Exception) -> str:
    """A user's error as its message; an OS error with the path it concerns; a bug with how to see its traceback."""
    from clsd_format.errors import CLSDError
    from clsd_format.files import os_error_reason

    if isinstance(exc, CLSDError):
        return str(exc)
    if isinstance(exc, OSError):  # the system refused (a folder under a file, permission, disk full): the user can act
        return f"{type(exc).__name__}: {os_error_reason(exc)}"
    return f"{type(exc).__name__}: {exc} (an internal error; run the command again with {DEBUG_FLAG} to see its traceback)"


def run_cli(app: Any, argv: Sequence[str] | None = None, prog_name: str = "clsd") -> None:
    """Run a typer app as a process does: one readable error line (status 2, or 1 for a bug), tracebacks only in debug mode."""
    import typer  # typer >= 0.25 carries its own copy of click: catch typer's names, not click's

    from clsd_format.errors import CLSDError

    args = list(sys.argv[1:] if argv is None else argv)
    debug = debug_requested(args)
    args = [a for a in args if a != DEBUG_FLAG]
    configure_console(debug)
    try:
        code = app(args=args, prog_name=prog_name, standalone_mode=False)
    except typer.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        print("Aborted.", file=sys.stderr)
        raise SystemExit(130) from None
    except Exception as exc:
        if _is_usage_error(exc):  # click's own message and usage line, e.g. "No such option: --bogus"
            exc.show()  # type: ignore[attr-defined]
            raise SystemExit(exc.exit_code) from None  # type: ignore[attr-defined]
        if debug:
            redact_exception(exc)  # the traceback shows every message of the chain: none with a key
            raise
        # the user gets one line, not a traceback; redacted: a server may echo the API key in its error
        print(f"error: {redact(_one_line(exc))}", file=sys.stderr)
        raise SystemExit(USER_ERROR if isinstance(exc, (CLSDError, OSError)) else INTERNAL_ERROR) from None
    if isinstance(code, int) and code:  # a command's typer.Exit(code) is returned, not raised, outside standalone mode
        raise SystemExit(code)
