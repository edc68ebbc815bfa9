"""The engine recipes of docs/generation.md that need a GPU, checked against the engines' own argument parser and API.

``vllm run-batch`` and Ray Data's vLLM engine processor cannot run here (no GPU, and vLLM is not a dependency), so
what the docs show is held against what the installed engine accepts: the command's arguments by vLLM's own
``run-batch`` parser (skipped, with its reason, where vLLM is not installed), the Python block's names and the
config's fields by ``ray.data.llm`` (the ``ray`` extra). The recipes that run without a GPU (the Ray Data job
through a server) run in tests/generation/llm/test_ray_batch.py.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import shlex
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[3] / "docs" / "generation.md"


def vllm_block() -> ast.Module:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    (code,) = [block for block in blocks if "vLLMEngineProcessorConfig(" in block]
    return ast.parse(code)


def test_the_vllm_run_batch_command_is_taken_by_vllm_s_parser() -> None:
    (line,) = re.findall(r"^vllm run-batch .*$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    args = shlex.split(line)[2:]
    if importlib.util.find_spec("vllm") is None:
        pytest.skip("vLLM is not installed (it needs a GPU machine and is no dependency): `vllm run-batch` not checked")
    from vllm.entrypoints.openai import run_batch

    try:
        from vllm.utils.argparse_utils import FlexibleArgumentParser
    except ImportError:  # vLLM before its utils were split
        from vllm.utils import FlexibleArgumentParser  # type: ignore[attr-defined,no-redef]
    parsed = run_batch.make_arg_parser(FlexibleArgumentParser()).parse_args(args)
    assert (parsed.input_file, parsed.output_file, parsed.model) == ("requests-1.jsonl", "answers-1.jsonl", args[-1])


def test_the_ray_vllm_engine_recipe_uses_names_and_fields_ray_data_llm_has() -> None:
    llm = pytest.importorskip("ray.data.llm", reason="the ray extra is not installed")
    tree = vllm_block()
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "ray.data.llm"
                for alias in node.names]  # fmt: skip
    assert imported and all(hasattr(llm, name) for name in imported), [n for n in imported if not hasattr(llm, n)]
    calls = {node.func.id: node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    fields = set(llm.vLLMEngineProcessorConfig.model_fields)
    config_keywords = {keyword.arg for keyword in calls["vLLMEngineProcessorConfig"].keywords}
    assert config_keywords <= fields, config_keywords - fields
    build_keywords = {keyword.arg for keyword in calls["build_processor"].keywords}
    assert build_keywords <= set(inspect.signature(llm.build_processor).parameters), build_keywords
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "config"}  # fmt: skip
    assert attributes <= fields, attributes - fields
