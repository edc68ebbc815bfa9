"""A registry filled by entry points (``clsd_format.plugins.registry``): clsd-mteb's own entries and another package's
alike, in the order of their names; a wrong entry or metadata that predates a group's built-ins is one line.

Each test installs small distributions in a folder of its own (a ``.dist-info`` beside a module, as ``pip install``
leaves them) and puts it first on the path, so that its ``clsd-mteb`` stands in for the installed one.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.plugins import DISTRIBUTION, PluginError, StaleInstall, read_group, registry

GROUP = "clsd_test.widgets"
Install = Callable[[str, str, dict[str, str]], None]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """``install(distribution, entry_points_txt, modules)``: a distribution with its modules, first on the path."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written: list[str] = []

    def put(distribution: str, entries: str, modules: dict[str, str]) -> None:
        info = tmp_path / f"{distribution.replace('-', '_')}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(entries, encoding="utf-8")
        for name, source in modules.items():
            (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
            written.append(name)
        importlib.invalidate_caches()

    yield put
    for name in written:
        sys.modules.pop(name, None)


def test_built_in_and_other_entries_are_one_registry_in_the_order_of_their_names(install: Install) -> None:
    install(
        DISTRIBUTION,
        f"[{GROUP}]\nzeta = own_widgets:ZETA\nbeta = own_widgets:BETA\n",
        {"own_widgets": 'ZETA, BETA = "zeta", "beta"\n'},
    )
    install("other-widgets", f"[{GROUP}]\nalpha = other_widgets:ALPHA\n", {"other_widgets": 'ALPHA = "alpha"\n'})
    found = registry(GROUP, str, lambda widget: widget)
    assert list(found.items()) == [("alpha", "alpha"), ("beta", "beta"), ("zeta", "zeta")]


def test_metadata_without_the_built_in_entries_is_refused_in_one_line(install: Install) -> None:
    install(DISTRIBUTION, "[console_scripts]\nclsd = clsd_cli.app:main\n", {})  # written before the group had entries
    install("other-widgets", f"[{GROUP}]\nalpha = other_widgets:ALPHA\n", {"other_widgets": 'ALPHA = "alpha"\n'})
    with pytest.raises(StaleInstall) as stale:
        registry(GROUP, str, lambda widget: widget)
    message = str(stale.value)
    assert f"declares no entry point of group {GROUP}" in message and "reinstall clsd-mteb" in message and "\n" not in message


OWN = f"(distribution {DISTRIBUTION} 0.1)"


@pytest.mark.parametrize(
    ("entries", "wrong"),
    [
        ("beta = own_widgets:NUMBER\n", f"'beta' = 'own_widgets:NUMBER' of group clsd_test.widgets {OWN} must name a str object"),
        (
            "gamma = own_widgets:BETA\n",
            f"'gamma' = 'own_widgets:BETA' of group clsd_test.widgets {OWN} must name a str object whose name is 'gamma'",
        ),
        (
            "beta = own_widgets:BETA\nbeta = own_widgets:AGAIN\n",
            f"'beta' = 'own_widgets:BETA' of group clsd_test.widgets {OWN} takes",
        ),
        (
            "beta = no_such_module:BETA\n",
            f"'beta' = 'no_such_module:BETA' of group clsd_test.widgets {OWN} cannot be loaded (ModuleNotFoundError: No module",
        ),
        ("beta = own_widgets:NOTHING\n", f"'beta' = 'own_widgets:NOTHING' of group clsd_test.widgets {OWN} cannot be loaded"),
    ],
    ids=["not-the-kind", "another-name", "twice", "no-module", "no-attribute"],
)
def test_a_wrong_entry_is_one_line_naming_it(install: Install, entries: str, wrong: str) -> None:
    install(DISTRIBUTION, f"[{GROUP}]\n{entries}", {"own_widgets": 'BETA, AGAIN, NUMBER = "beta", "beta", 3\n'})
    with pytest.raises(CLSDError) as refused:
        registry(GROUP, str, lambda widget: widget)
    assert wrong in str(refused.value) and "\n" not in str(refused.value)


def test_another_package_taking_a_built_in_name_is_refused_by_its_own_name_unloaded(install: Install) -> None:
    install(DISTRIBUTION, f"[{GROUP}]\nbeta = own_widgets:BETA\n", {"own_widgets": 'BETA = "beta"\n'})
    install("aaa-widgets", f"[{GROUP}]\nbeta = aaa_widgets:BETA\n", {"aaa_widgets": 'raise RuntimeError("imported")\n'})
    read = read_group(GROUP, str, lambda widget: widget)
    assert read.found == {"beta": "beta"} and read.origins["beta"].built_in  # the built-in keeps its name
    refusal = str(read.refused["beta"])
    assert "'beta' = 'aaa_widgets:BETA'" in refusal and "(distribution aaa-widgets 0.1)" in refusal and OWN not in refusal
    assert "aaa_widgets" not in sys.modules  # refused by its name, never imported
    with pytest.raises(PluginError, match="aaa-widgets"):
        registry(GROUP, str, lambda widget: widget)


def test_a_plugin_raising_while_it_runs_is_named_a_built_in_is_clsds_own_bug(install: Install) -> None:
    install(DISTRIBUTION, f"[{GROUP}]\nbeta = own_widgets:BETA\n", {"own_widgets": 'BETA = "beta"\n'})
    install("other-widgets", f"[{GROUP}]\nalpha = other_widgets:ALPHA\n", {"other_widgets": 'ALPHA = "alpha"\n'})
    read = read_group(GROUP, str, lambda widget: widget)

    def broken(text: str) -> str:
        raise ValueError(f"cannot read {text}\nsecond line")

    with pytest.raises(PluginError) as named:
        read.run("alpha", broken, "this")
    assert str(named.value).startswith("the entry point 'alpha' = 'other_widgets:ALPHA' of group clsd_test.widgets")
    assert "(distribution other-widgets 0.1) raised ValueError: cannot read this;" in str(named.value)
    assert "\n" not in str(named.value)
    with pytest.raises(ValueError):
        read.run("beta", broken, "this")
    with pytest.raises(CLSDError) as refused:  # a plug-in's own user error is left as it says it
        read.run("alpha", _refuses)
    assert type(refused.value) is CLSDError and str(refused.value) == "refused as it is"


def _refuses() -> None:
    raise CLSDError("refused as it is")
