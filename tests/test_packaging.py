"""clsd-mteb works from its wheel, not only from a source checkout.

The wheel is built from a copy of the sources, installed without dependencies into a fresh virtual
environment that borrows this environment's packages (torch, mteb, models) through a ``.pth`` line,
so nothing heavy is reinstalled; the editable install's finder does not load there (a ``.pth`` line
adds a folder, it does not run that folder's ``.pth`` files), and the test checks that every
package is imported from the new environment. Then the four user-facing commands run from it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

SOURCES = ("pyproject.toml", "README.md", "clsd_format", "clsd_mteb", "clsd_cli", "generation", "analysis")
PACKAGES = ("clsd_format", "clsd_mteb", "clsd_generation", "clsd_analysis", "clsd_cli")
ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
]


def test_every_package_folder_is_in_the_wheel() -> None:
    """A new subpackage that pyproject.toml does not list would be missing from the wheel (it happened)."""
    tomllib = pytest.importorskip("tomllib")
    setuptools = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {name: REPO_ROOT / folder for name, folder in setuptools["package-dir"].items() if "." not in name}
    found = {
        ".".join([name, *init.parent.relative_to(folder).parts])
        for name, folder in folders.items()
        for init in folder.rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found == set(setuptools["packages"])


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the clsd-mteb wheel; returns its bin folder."""
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
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    constraints = ["-c", str(REPO_ROOT / "constraints" / "cpu.txt")]  # as the Makefile does for every pip call
    subprocess.run([*pip, "wheel", *constraints, "--no-deps", "--no-build-isolation", "-w", str(dist), str(source)], check=True)
    (wheel,) = dist.glob("clsd_mteb-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    site = subprocess.run(
        [str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "zz-borrowed-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([*pip, "--python", str(bin_dir / "python"), "install", *constraints, "--no-deps", str(wheel)], check=True)
    return bin_dir


def run(bin_dir: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CLSD_DATA_DIR")}
    done = subprocess.run([str(bin_dir / "clsd"), *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"clsd {' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
def test_every_package_comes_from_the_wheel(wheel_env: Path, tmp_path: Path) -> None:
    code = f"import json, importlib; print(json.dumps({{p: importlib.import_module(p).__file__ for p in {PACKAGES!r}}}))"
    done = subprocess.run([str(wheel_env / "python"), "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    venv = wheel_env.parent.resolve()
    for package, location in json.loads(done.stdout).items():
        assert venv in Path(location).resolve().parents, f"{package} imported from {location}, not from the wheel"


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
        score = json.loads(path.read_text(encoding="utf-8"))["scores"]["test"][0]["precision_at_1"]
        assert f"{100 * score:.2f}" in evaluated.stdout

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
