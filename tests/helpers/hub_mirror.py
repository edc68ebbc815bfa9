"""A Hub-compatible server on 127.0.0.1 for the tests: olah, serving git repositories the test writes, offline.

olah (a self-hosted Hugging Face mirror, the ``test`` extra) answers the Hub's API and file routes for
the git repositories under ``<mirrors>/datasets/<owner>/<name>``, at any of their commits; with
``offline`` on it never asks huggingface.co. ``HF_ENDPOINT`` points ``huggingface_hub`` and
``datasets`` at it, so they run exactly as against the Hub: revision lookups, downloads, their cache.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GIT = ["git", "-c", "user.name=clsd tests", "-c", "user.email=tests@clsd.invalid", "-c", "init.defaultBranch=main"]


def commit(repository: Path, message: str = "data") -> str:
    """Commit everything in ``repository`` (a git repository is made there first if need be); its commit hash."""
    if not (repository / ".git").is_dir():
        subprocess.run([*GIT, "init", "-q", str(repository)], check=True)
    subprocess.run([*GIT, "-C", str(repository), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repository), "commit", "-q", "-m", message], check=True)
    done = subprocess.run([*GIT, "-C", str(repository), "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def write_pushed_layout(repository: Path, configs: Mapping[str, Sequence[Mapping[str, Any]]], license: str) -> None:
    """Parquet files and card as ``datasets``' ``push_to_hub`` lays them out: ``<config>/test-00000-of-00001.parquet``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    lines = ["---", f"license: {license}", "configs:"]
    for config, records in configs.items():
        (repository / config).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(list(records)), repository / config / "test-00000-of-00001.parquet")
        lines += [f"- config_name: {config}", "  data_files:", "  - split: test", f"    path: {config}/test-*"]
    (repository / "README.md").write_text("\n".join([*lines, "---", "", "Test rows in the layout of the Hub copy.", ""]))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(mirrors: Path, workdir: Path, ready_repository: str) -> Iterator[str]:
    """Run olah on 127.0.0.1 over the repositories under ``mirrors``; yield its URL once ``ready_repository`` answers."""
    port = _free_port()
    config = workdir / "olah.toml"
    config.write_text(
        "[basic]\n"
        f'host = "127.0.0.1"\nport = {port}\n'
        f'repos-path = "{workdir / "cache"}"\nmirrors-path = ["{mirrors}"]\n'
        'hf-scheme = "http"\nhf-netloc = "127.0.0.1:9"\nhf-lfs-netloc = "127.0.0.1:9"\n'  # never huggingface.co
        "[accessibility]\noffline = true\n"
    )
    log = (workdir / "olah.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "olah.server", "-c", str(config)], cwd=workdir, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/datasets/{ready_repository}/revision/main", timeout=5):
                    break
            except (urllib.error.URLError, OSError):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"olah did not start: {(workdir / 'olah.log').read_text()[-2000:]}") from None
                time.sleep(0.3)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def client_env(url: str, home: Path, *, offline: bool = False) -> dict[str, str]:
    """The environment of a process whose Hub clients talk to ``url`` (or only to their cache in ``home``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CLSD_DATA_DIR", "CLSD_DEBUG")}
    flag = "1" if offline else "0"
    env.update(HF_ENDPOINT=url, HF_HOME=str(home), HF_HUB_OFFLINE=flag, HF_DATASETS_OFFLINE=flag)
    return env
