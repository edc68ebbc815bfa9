"""Dataset commands under hostile conditions, each through real ``python -m clsd_cli`` processes.

One process per run folder (a second one stops at once, a ``kill -9`` leaves no stale lock); files
written with the user's umask; repository ids checked as the Hub checks them; staging folders of
killed builds removed; OS errors named with their path, exit status 2.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.staging import end, hold_staging, kill_unreaped

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
]


def clsd(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``python -m clsd_cli ARGS`` in a process of its own (``kwargs`` go to ``subprocess.run``)."""
    env = {**{k: v for k, v in os.environ.items() if k != "CLSD_DEBUG"}, "OPENAI_API_KEY": "test-key"}
    return subprocess.run(
        [sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, timeout=180, **kwargs
    )  # type: ignore[call-overload]


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished rule-backend run of three sentence pairs."""
    folder = tmp_path_factory.mktemp("rules")
    corpus = write_parallel_csv(folder / "p.csv", ROWS)
    invoke("generate", str(corpus), "--run-dir", str(folder / "run"), *DE_FR_OPTIONS, "--quiet")
    return folder / "run"


@pytest.fixture(scope="module")
def dataset(run_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "ds"
    invoke("build", "--run-dir", str(run_dir), "--out", str(out), "--name", "Hostile")
    return out


def _generate_command(corpus: Path, run_dir: Path, base_url: str, concurrency: int) -> list[str]:
    return llm_generate_args(corpus, run_dir, base_url, "--concurrency", str(concurrency), "--quiet")


@pytest.mark.slow
def test_one_process_per_run_folder_and_a_killed_holder_leaves_no_lock(tmp_path: Path) -> None:
    # 120 sentences answered two a second: the first run is busy for a minute
    rows = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(60)]
    corpus = write_parallel_csv(tmp_path / "p.csv", rows)
    run_dir = tmp_path / "run"
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    with FakeOpenAI(delay=0.5) as slow, FakeOpenAI() as fast:
        first = subprocess.Popen(
            [sys.executable, "-m", "clsd_cli", *_generate_command(corpus, run_dir, slow.base_url, 1)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 120
            while not slow.log:  # a request was sent: the first run holds the lock
                assert first.poll() is None, first.stderr.read().decode() if first.stderr else ""
                assert time.monotonic() < deadline, "the first run sent no request"
                time.sleep(0.05)
            second = clsd(*_generate_command(corpus, run_dir, fast.base_url, 4))
            assert second.returncode == 2, second.stderr
            line = one_line(second)
            assert f"run folder {run_dir} is in use" in line and f"(pid {first.pid})" in line
            assert fast.log == []  # refused before any request
            for other in (
                ["translate", "--run-dir", str(run_dir)],
                ["build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "X"],
            ):
                refused = clsd(*other)
                assert refused.returncode == 2 and f"(pid {first.pid})" in one_line(refused), refused.stderr
            assert not (tmp_path / "ds").exists()
            assert first.poll() is None, "the holder must still be running"
        finally:
            first.kill()  # SIGKILL: no cleanup runs in it
            first.wait()
        assert first.returncode == -signal.SIGKILL
        third = clsd(*_generate_command(corpus, run_dir, fast.base_url, 4))
        assert third.returncode == 0, third.stderr  # the kernel released the dead holder's lock
        assert fast.log


@pytest.mark.slow
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640)], ids=["umask-022", "umask-027"])
def test_built_files_get_the_user_s_umask(umask: int, mode: int, run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    done = clsd("build", "--run-dir", str(run_dir), "--out", str(out), "--name", "Modes", umask=umask)
    assert done.returncode == 0, done.stderr
    files = sorted(path for path in out.rglob("*") if path.is_file())
    assert [path.name for path in files].count("test.parquet") == 2 and (out / "README.md") in files
    assert {path.relative_to(out).as_posix(): oct(stat.S_IMODE(path.stat().st_mode)) for path in files} == {
        path.relative_to(out).as_posix(): oct(mode) for path in files
    }


@pytest.mark.slow
@pytest.mark.parametrize("repo_id", ["me/x y", "me/..", "me/x.git", "me/-x"])
def test_push_refuses_a_repository_id_the_hub_refuses(repo_id: str, dataset: Path, tmp_path: Path) -> None:
    done = clsd("push-dataset", str(dataset), "--repo-id", repo_id, "--dry-run", str(tmp_path / "preview"))
    assert done.returncode == 2, done.stdout
    assert f"repository id {repo_id!r} is not valid on the Hub" in one_line(done)
    assert not (tmp_path / "preview").exists()  # refused before any work
    assert clsd("push-dataset", str(dataset), "--repo-id", "me/x", "--dry-run", str(tmp_path / "ok")).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "waitid"), reason="a process killed but not reaped needs os.waitid")
def test_a_build_removes_the_staging_folders_of_killed_builds_only(run_dir: Path, tmp_path: Path) -> None:
    killed, stale = hold_staging(tmp_path / "ds")  # each writes a half file into its staging folder, as a build does
    reaped, also_stale = hold_staging(tmp_path / "ds")
    alive, busy = hold_staging(tmp_path / "ds")
    other_build, other = hold_staging(tmp_path / "other")  # another folder's: not this build's to judge
    try:
        kill_unreaped(killed)  # SIGKILL, not yet reaped: its pid still answers
        for holder in (reaped, other_build):
            holder.kill()
            holder.wait()
        done = clsd("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "Stale")
        assert done.returncode == 0, done.stderr
        assert not stale.exists() and not also_stale.exists()
        assert (busy / "half.parquet").exists() and other.exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            ["ds", busy.name, f"{busy.name}.lock", other.name, f"{other.name}.lock"]
        )
    finally:
        for holder in (killed, reaped, alive, other_build):
            end(holder)


@pytest.mark.slow
def test_writing_under_a_regular_file_names_the_path_with_status_2(run_dir: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    built = clsd("build", "--run-dir", str(run_dir), "--out", str(blocker / "ds"), "--name", "X")
    assert built.returncode == 2
    assert one_line(built) == (
        f"error: cannot write the dataset folder {blocker / 'ds'}: Not a directory ({blocker} is a file, not a folder)."
    )
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    generated = clsd("generate", str(corpus), "--run-dir", str(blocker / "run"), *DE_FR_OPTIONS, "--quiet")
    assert generated.returncode == 2
    assert one_line(generated) == (
        f"error: cannot write the run folder {blocker / 'run'}: Not a directory ({blocker} is a file, not a folder)."
    )
