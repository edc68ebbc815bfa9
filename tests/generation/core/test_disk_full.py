"""A run folder that fills up mid-run: exit status 2 and one line naming the folder, the checkpoint intact.

The disk is a real 300 KB tmpfs, mounted in a private mount namespace (``unshare``) so that it
vanishes with the command and needs no clean-up. Where no namespace can be made (no ``unshare``, or
user namespaces forbidden), the same refusal is simulated by a file-size limit on the command
(``RLIMIT_FSIZE``), which makes SQLite's writes fail as a refusing disk does.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clsd_generation.core.checkpoint import Checkpoint
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROWS = 400  # 800 sentences: their answers outgrow 300 KB well before the end


def _can_mount_tmpfs() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        [
            "unshare",
            "-rm",
            "sh",
            "-c",
            "mount -t tmpfs -o size=16k tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=16k tmpfs /tmp",
        ],
        capture_output=True,
        timeout=30,
    )
    return probe.returncode == 0


def _generate_command(corpus: Path, run_dir: Path, base_url: str) -> list[str]:
    return [sys.executable, "-m", "clsd_cli", *llm_generate_args(corpus, run_dir, base_url, "--concurrency", "4", "--quiet")]


def _run_on_small_disk(command: list[str], mount_point: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    if _can_mount_tmpfs():
        script = f"mount -t tmpfs -o size=300k tmpfs {shlex.quote(str(mount_point))} && {shlex.join(command)}; status=$?; "
        # the run folder is copied out before the namespace (and its tmpfs) goes away, to check and resume it
        script += f"cp -r {shlex.quote(str(mount_point / 'run'))} {shlex.quote(str(mount_point.parent / 'copied'))}; exit $status"
        return subprocess.run(["unshare", "-rm", "sh", "-c", script], env=env, capture_output=True, text=True, timeout=300)
    limited = (
        "import resource, runpy, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000)); sys.argv = sys.argv[1:]; "
        "runpy.run_module('clsd_cli', run_name='__main__')"
    )
    result = subprocess.run(
        [sys.executable, "-c", limited, "clsd", *command[3:]], env=env, capture_output=True, text=True, timeout=300
    )
    shutil.copytree(mount_point / "run", mount_point.parent / "copied")
    return result


@pytest.mark.slow
def test_a_full_run_folder_is_the_users_to_fix_and_the_checkpoint_resumes_elsewhere(tmp_path: Path) -> None:
    corpus = write_parallel_csv(
        tmp_path / "p.csv", [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(ROWS)]
    )
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    with FakeOpenAI() as fake:
        full = _run_on_small_disk(_generate_command(corpus, mount_point / "run", fake.base_url), mount_point)
        assert full.returncode == 2, full.stderr
        lines = full.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: cannot write in the run folder"), full.stderr
        assert str(mount_point / "run") in lines[0] and "internal error" not in lines[0]
        copied = tmp_path / "copied"
        with Checkpoint.existing(copied) as checkpoint:
            recorded = len(checkpoint.results())
        assert 0 < recorded < 2 * ROWS  # stopped partway, with what it had recorded intact
        resumed = subprocess.run(
            _generate_command(corpus, copied, fake.base_url),
            env={**os.environ, "OPENAI_API_KEY": "test-key"},
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{recorded} finished before this run" in resumed.stdout
    with Checkpoint.existing(copied) as checkpoint:
        results = checkpoint.results()
    assert len({(r.pair_id, r.lang) for r in results}) == len(results) == 2 * ROWS


@pytest.mark.slow
def test_a_full_run_folder_in_batch_mode_is_the_disk_not_the_provider(tmp_path: Path) -> None:
    # only the Batch API's own errors are reported as the provider's refusal; a full disk says what it is
    corpus = write_parallel_csv(
        tmp_path / "p.csv", [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(ROWS)]
    )
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    with FakeOpenAI() as fake:
        command = [
            arg for arg in _generate_command(corpus, mount_point / "run", fake.base_url) if arg not in ("--concurrency", "4")
        ]
        full = _run_on_small_disk([*command, "--batch"], mount_point)
    assert full.returncode == 2, full.stderr
    lines = full.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write in the run folder"), full.stderr
    assert "Batch API" not in lines[0]
