"""Credentials kept out of what is stored, printed or logged (clsd_format.redaction)."""

from __future__ import annotations

import logging
import sys

from clsd_format.redaction import (
    REDACTED,
    RedactingFilter,
    install_log_filter,
    public_url,
    redact,
    redact_exception,
    register_secret,
)


def test_public_url_drops_credentials_query_and_fragment() -> None:
    assert public_url("http://alice:pw-xyz-123456@llm.example:8080/v1?api_key=abc123456789#top") == "http://llm.example:8080/v1"
    assert public_url("  https://host/v1/  ") == "https://host/v1/"
    assert public_url("not a url?token=zzzzzzzzzzzz") == "not a url"


def test_public_url_registers_what_it_drops() -> None:
    public_url("http://bob:Secret-Pass-5150@host/v1?access_token=tok-98765432&lang=de")
    assert redact("server said Secret-Pass-5150 and tok-98765432") == f"server said {REDACTED} and {REDACTED}"
    assert "de" in redact("lang de")


def test_token_shapes_are_redacted_wherever_they_appear() -> None:
    text = "key sk-redactiontest98765 and hf_abcdefghijklmnopqrstuv, Authorization: Bearer eyJ0eXAi.x-1"
    assert redact(text) == f"key {REDACTED} and {REDACTED}, Authorization: Bearer {REDACTED}"
    assert redact("the bearer certificates arrived") == "the bearer certificates arrived"
    assert redact("see https://u:p@h/x?sig=abc&q=1") == f"see https://{REDACTED}@h/x?sig={REDACTED}&q=1"


def test_short_values_are_not_registered() -> None:
    register_secret("none")
    register_secret("   ")
    register_secret(None)
    assert redact("none of this is secret") == "none of this is secret"
    register_secret("  mykey-0042-longer  ")
    assert redact("got mykey-0042-longer back") == f"got {REDACTED} back"


def test_redact_exception_cleans_the_whole_chain() -> None:
    register_secret("chain-secret-7777")
    try:
        try:
            raise OSError("inner chain-secret-7777")
        except OSError as inner:
            raise RuntimeError("outer chain-secret-7777", 3) from inner
    except RuntimeError as outer:
        redact_exception(outer)
        assert outer.args == (f"outer {REDACTED}", 3)
        assert outer.__cause__ is not None and outer.__cause__.args == (f"inner {REDACTED}",)


def test_the_log_filter_redacts_messages_and_tracebacks() -> None:
    handler = logging.Handler()
    install_log_filter([handler])
    install_log_filter([handler])
    assert sum(isinstance(f, RedactingFilter) for f in handler.filters) == 1
    try:
        raise ValueError("sk-tracebacksecret99")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "asked %s", ("sk-argumentsecret1",), sys.exc_info())
    assert handler.filter(record)
    assert record.getMessage() == f"asked {REDACTED}"
    assert record.exc_text is not None and "sk-tracebacksecret99" not in record.exc_text and REDACTED in record.exc_text
