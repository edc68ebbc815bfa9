"""Optional parts (clsd_format.extras): whether an extra's modules are installed, and the one line when one is not."""

from __future__ import annotations

import sys

import pytest

from clsd_format.extras import EXTRA_MODULES, MissingExtra, importable, install_command, missing_modules, require_extra


def test_importable_finds_without_importing() -> None:
    assert importable("json") and importable("clsd_format")
    assert not importable("clsd_no_such_module") and not importable("")


def test_a_module_known_to_fail_is_not_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "clsd_blocked_module", None)
    assert not importable("clsd_blocked_module")


def test_missing_modules_keep_their_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRA_MODULES, "demo", ("clsd_missing_b", "json", "clsd_missing_a"))
    assert missing_modules("demo") == ["clsd_missing_b", "clsd_missing_a"]


def test_require_extra_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRA_MODULES, "demo", ("json", "clsd_missing_a"))
    with pytest.raises(MissingExtra) as caught:
        require_extra("demo", "clsd generate")
    assert caught.value.missing == ("clsd_missing_a",) and caught.value.extra == "demo"
    assert str(caught.value) == (
        "clsd generate needs the optional dependencies clsd-mteb[demo] (clsd_missing_a not installed): "
        "pip install 'clsd-mteb[demo]'"
    )
    monkeypatch.setitem(EXTRA_MODULES, "demo", ("json",))
    require_extra("demo", "clsd generate")  # all there: nothing raised


def test_install_command_is_quoted_for_a_shell() -> None:
    assert install_command("analysis") == "pip install 'clsd-mteb[analysis]'"
