"""Keeping credentials out of everything the commands store, print, log or publish.

Two functions, used wherever an endpoint URL or a server's error text could reach a file or the console:

* :func:`public_url`: a URL as it may be recorded (checkpoint, dataset card, results, messages), without
  user name, password, query string or fragment. ``http://user:sk-...@host/v1?api_key=...`` is
  recorded as ``http://host/v1``; the request itself still goes to the URL the user gave.
* :func:`redact`: any text (an error line, a log record) with every API key this process has read
  (:func:`register_secret`, called where a key is taken from the environment), every ``sk-...`` or
  ``hf_...``-shaped token, the token after ``Bearer``, the user and password of a URL and credential-like query
  parameters replaced by ``[redacted]``. :func:`clsd_format.console.run_cli` applies it to the one
  error line a command prints, and :class:`RedactingFilter` to every log record the console shows.
"""

from __future__ import annotations

import base64
import logging
import re
import threading
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8  # shorter values ("none", "test") are placeholders of servers that need no key, and common words

_secrets: set[str] = set()
_lock = threading.Lock()

_CREDENTIAL_PARAMETER = r"api[_-]?key|key|token|access[_-]?token|auth|secret|password|passwd|sig|signature"
_PATTERNS = (
    # sk-... (OpenAI and compatible servers), hf_... (Hugging Face): redacted wherever they appear
    (re.compile(r"\bsk-[A-Za-z0-9][A-Za-z0-9_-]{7,}|\bhf_[A-Za-z0-9]{20,}"), REDACTED),
    # an echoed Authorization header, "Bearer <token>" (a token has a digit or a sign, so "bearer of news" stays)
    (re.compile(r"\b(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9_~+/=-])[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), rf"\1{REDACTED}"),
    # the user name and password of a URL: scheme://user:password@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/\s@]+@", re.IGNORECASE), rf"\1{REDACTED}@"),
    # credential-like query parameters: ?api_key=..., &token=..., &sig=...
    (re.compile(rf"([?&](?:{_CREDENTIAL_PARAMETER})=)[^&#\s'\"]+", re.IGNORECASE), rf"\1{REDACTED}"),
)


def register_secret(value: str | None) -> None:
    """Remember a credential this process holds, so that :func:`redact` removes it from any text."""
    if value and len(value.strip()) >= MIN_SECRET_LENGTH:
        with _lock:
            _secrets.add(value.strip())


def redact(text: str) -> str:
    """``text`` with every registered secret and every credential-shaped token replaced by ``[redacted]``."""
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)  # the longest first: a key never leaves a tail of itself
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def public_url(url: str) -> str:
    """``url`` without user name, password, query string and fragment: what may be stored, printed or published.

    The credentials it leaves out are registered (:func:`register_secret`), with the ``Basic`` header
    the HTTP client derives from a URL's user and password, so that a server echoing them in an error
    gets them redacted too.
    """
    try:
        parts = urlsplit(url.strip())
        userinfo, _, host = parts.netloc.rpartition("@")
    except ValueError:  # not a URL at all: still never show what it may hold
        return redact(url)
    _register_url_credentials(userinfo, parts.query)
    if not parts.scheme or not host:
        return redact(url.split("?", 1)[0].split("#", 1)[0])
    return redact(urlunsplit((parts.scheme, host, parts.path, "", "")))


def _register_url_credentials(userinfo: str, query: str) -> None:
    if userinfo:
        user, _, password = (unquote(part) for part in userinfo.partition(":"))
        for value in (user, password, userinfo, base64.b64encode(f"{user}:{password}".encode()).decode("ascii")):
            register_secret(value)
    for name, value in parse_qsl(query, keep_blank_values=False):
        if re.fullmatch(_CREDENTIAL_PARAMETER, name, re.IGNORECASE):
            register_secret(value)


def redact_exception(exc: BaseException) -> None:
    """Redact the messages of an exception and of every exception it was raised from (for tracebacks in debug mode)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in current.args)
        if isinstance(getattr(current, "message", None), str):
            try:
                current.message = redact(current.message)  # type: ignore[attr-defined]
            except AttributeError:  # a read-only property
                pass
        current = current.__cause__ or current.__context__


class RedactingFilter(logging.Filter):
    """A handler filter: every record's message (and traceback) leaves the process redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: the handler reports it as it always does
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install_log_filter(handlers: list[logging.Handler]) -> None:
    """Add one :class:`RedactingFilter` to each handler (once, however often a process configures its console)."""
    for handler in handlers:
        if not any(isinstance(existing, RedactingFilter) for existing in handler.filters):
            handler.addFilter(RedactingFilter())
