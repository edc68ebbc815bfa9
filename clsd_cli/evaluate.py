"""``clsd evaluate`` and ``clsd export-release``: the mteb plugin's commands.

Only typer and the light ``clsd_format`` are imported at module level; mteb, torch and the models load
inside the commands, after the arguments are checked (so a mistake answers at once).
Options are declared once below, as ``Annotated`` aliases, so each command reads as what it does.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from clsd_format import authors_hub, defaults, schema
from clsd_format.folders import folder_callback
from clsd_format.release import DATA_DIR_ENV, RELEASE_TASK_NAMES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mteb.abstasks import AbsTask
    from mteb.models import CrossEncoderProtocol, EncoderProtocol

    from clsd_analysis.comparisons import Hits
    from clsd_analysis.tables import Table1
    from clsd_cli.progress import ConsoleProgress
    from clsd_format.data_source import DataSource
    from clsd_mteb.encoders.served import ServedConfig

app = typer.Typer(add_completion=False)

DEFAULT_OUTPUT = Path("clsd-results")
TableFormat = Literal["markdown", "latex", "csv"]

ModelOption = Annotated[
    str | None,
    typer.Option(
        metavar="NAME",
        help=f"Model: an embedded one ({', '.join(defaults.EMBEDDED_MODELS)}), a clsd baseline "
        f"({', '.join(defaults.BASELINE_MODELS)}), a local sentence-transformers folder, any name mteb.get_model "
        "knows, endpoint:MODEL@BASE_URL (an embeddings endpoint) or rerank:MODEL@BASE_URL (a rerank server). Default: the embedded multilingual USE v3, shown beside the character n-gram baseline.",
    ),
]
TasksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tasks",
        "-t",
        metavar="NAME[,NAME...]",
        help="Task names, comma-separated or repeated (the release's are listed below). Default: every task of the data source.",
    ),
]
DataDirOption = Annotated[
    Path | None,
    typer.Option(
        metavar="DIR",
        callback=folder_callback("data folder"),
        help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. "
        f"Default: ${DATA_DIR_ENV}, else the release fetched from GitHub.",
    ),
]
HubDatasetOption = Annotated[
    str | None,
    typer.Option(
        metavar="REPO_ID@REVISION",
        help="A CLSD dataset on the Hugging Face Hub at a pinned revision: one in the clsd-mteb Hub format, or the "
        f"authors' {authors_hub.REPO_ID} (the four direct tasks; revision default {authors_hub.DEFAULT_REVISION[:12]}, "
        "the one mteb pinned).",
    ),
]
OutputOption = Annotated[
    Path,
    typer.Option(
        metavar="DIR",
        callback=folder_callback("results folder", may_be_missing=True),
        help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/.",
    ),
]
BatchSizeOption = Annotated[int, typer.Option(min=1, metavar="N", help="Texts per encoding batch (on a GPU, larger is faster).")]
ExactOption = Annotated[
    bool,
    typer.Option(
        "--exact",
        help="Encode each text in a batch of its own, so that no score depends on the batch size, even in the "
        "last bits (slower; models that declare batch-invariant outputs are batched anyway).",
    ),
]
DeviceOption = Annotated[
    str | None,
    typer.Option(metavar="DEVICE", help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers."),
]
OverwriteOption = Annotated[
    bool, typer.Option("--overwrite", help="Re-run tasks whose results already exist (default: reuse them).")
]
LimitOption = Annotated[
    int | None, typer.Option(min=1, metavar="N", help="Evaluate only the first N rows of each task (a trial run).")
]
EndpointUrlOption = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        help="An OpenAI-compatible embeddings endpoint to evaluate instead of --model, e.g. http://127.0.0.1:8000/v1.",
    ),
]
EndpointModelOption = Annotated[
    str | None, typer.Option(metavar="NAME", help="The model name the endpoint serves (needed with --endpoint-url).")
]
FormatOption = Annotated[
    TableFormat | None,
    typer.Option(
        "--format",
        metavar="markdown|latex|csv",
        help="How Table 1 is printed. Default: a table drawn for the terminal, Markdown when the output is not a "
        "terminal. With --format only the table goes to stdout; the progress lines go to stderr.",
    ),
]
EndpointKeyEnvOption = Annotated[
    str | None,
    typer.Option(
        metavar="VAR",
        help=f"Environment variable that holds a served model's API key (endpoint or rerank). Default: {defaults.ENDPOINT_KEY_ENV}.",
    ),
]
EndpointDimOption = Annotated[
    int | None,
    typer.Option(min=1, metavar="N", help="Expected embedding size; checked against the embeddings endpoint's first answer."),
]
EndpointConcurrencyOption = Annotated[
    int | None,
    typer.Option(
        min=1,
        metavar="N",
        help="Requests in flight at once to a served model (each one --batch-size texts or pairs). "
        f"Default: {defaults.ENDPOINT_CONCURRENCY}.",
    ),
]
EndpointPrefixOption = Annotated[
    str,
    typer.Option(
        metavar="TEXT",
        help="Text put before every sentence sent to an embeddings endpoint, for a model whose server does not add "
        "its prompt (e.g. 'query: ').",
    ),
]
EndpointRetriesOption = Annotated[
    int | None,
    typer.Option(
        min=0,
        metavar="N",
        help=f"Retries per failed request to a served model (the openai client's back-off). Default: {defaults.ENDPOINT_RETRIES}.",
    ),
]
EndpointTimeoutOption = Annotated[
    float | None,
    typer.Option(
        min=0.001,
        metavar="SECONDS",
        help="Seconds one request attempt to a served model may take before it is abandoned (and retried). "
        f"Default: {defaults.ENDPOINT_TIMEOUT_S:g}.",
    ),
]
# The options every served model takes (an embeddings endpoint or a rerank server), by the setting each one sets.
SERVED_OPTIONS = {
    "--endpoint-key-env": "key_env",
    "--endpoint-concurrency": "concurrency",
    "--endpoint-retries": "max_retries",
    "--endpoint-timeout": "timeout_s",
}
# The options only an embeddings endpoint takes.
EMBEDDING_OPTIONS = {"--endpoint-dim": "dimensions", "--endpoint-prefix": "prefix"}


def _task_list(names: Sequence[str], per_line: int = 2) -> str:
    """The release's task names for the end of ``--help``, in columns that click prints as they are."""
    width = max(map(len, names)) + 2
    rows = ["".join(name.ljust(width) for name in names[i : i + per_line]).rstrip() for i in range(0, len(names), per_line)]
    return "Tasks of the release (for --tasks):\n\n\b\n" + "\n".join(rows)


def split_names(values: list[str] | None) -> list[str] | None:
    """``--tasks`` as given (comma-separated, repeated) as one list of names; None when none were given."""
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


@app.command(epilog=_task_list(RELEASE_TASK_NAMES))
def evaluate(
    model: ModelOption = None,
    tasks: TasksOption = None,
    data_dir: DataDirOption = None,
    hub_dataset: HubDatasetOption = None,
    output: OutputOption = DEFAULT_OUTPUT,
    batch_size: BatchSizeOption = defaults.BATCH_SIZE,
    exact: ExactOption = False,
    device: DeviceOption = None,
    overwrite: OverwriteOption = False,
    limit: LimitOption = None,
    table_format: FormatOption = None,
    endpoint_url: EndpointUrlOption = None,
    endpoint_model: EndpointModelOption = None,
    endpoint_key_env: EndpointKeyEnvOption = None,
    endpoint_dim: EndpointDimOption = None,
    endpoint_concurrency: EndpointConcurrencyOption = None,
    endpoint_prefix: EndpointPrefixOption = "",
    endpoint_retries: EndpointRetriesOption = None,
    endpoint_timeout: EndpointTimeoutOption = None,
) -> None:
    """Evaluate a model and print the paper's Table 1 for it.

    Without --model, the embedded multilingual USE v3 is evaluated beside the character n-gram baseline.
    """
    from clsd_format.data_source import resolve_data_source
    from clsd_format.errors import CLSDError

    # Mistakes in the arguments answer here, before mteb is imported (seconds) or a model loads.
    if (endpoint_url or endpoint_model) and (model or not (endpoint_url and endpoint_model)):
        raise CLSDError("an endpoint needs both --endpoint-url and --endpoint-model, and no --model")
    given = {
        "--endpoint-key-env": endpoint_key_env,
        "--endpoint-concurrency": endpoint_concurrency,
        "--endpoint-retries": endpoint_retries,
        "--endpoint-timeout": endpoint_timeout,
        "--endpoint-dim": endpoint_dim,
        "--endpoint-prefix": endpoint_prefix or None,
    }
    served = served_config(model, endpoint_url, endpoint_model, {k: v for k, v in given.items() if v is not None})
    source = resolve_data_source(data_dir, hub_dataset)
    names = source.check_task_names(split_names(tasks))
    from clsd_cli.progress import ConsoleProgress

    err = table_format is not None  # a format asked for: stdout holds the table alone, for a file or a script
    watched = (sys.stderr if err else sys.stdout).isatty()  # a person reads the progress lines as they come
    encoders = _encoders(model, device, served)  # a model that cannot load stops the run before the data is read
    selected = _load_tasks(source, names, limit=limit, exact=exact, err=err)
    facts = (_warn_untrained(encoders, selected), _pivot_not_built(source))  # what the answer marks and says
    scored: dict[str, dict[str, tuple[float, int, float | None]]] = {}
    with ConsoleProgress(watched=watched, err=err) as progress:
        for encoder in encoders:
            scored.update(_evaluate_one(encoder, selected, output, batch_size=batch_size, overwrite=overwrite, progress=progress))
    table, answer = _table1(scored, _prediction_hits(encoders, scored, output, limit), facts)
    _print_table(table, table_format, drawn=table_format is None and sys.stdout.isatty())
    _print_answer(answer, err=err)
    typer.echo(f"\nResults: {output / 'results'}", err=err)


def served_config(
    model: str | None, endpoint_url: str | None, endpoint_model: str | None, options: dict[str, Any]
) -> ServedConfig | None:
    """The served model of the run, with the ``--endpoint-*`` options given (``options``, by option name) set on it;
    None for a model that runs in this process. An option that cannot apply to the model's kind is refused with one
    line, never ignored: a timeout given for a local model, a dimension for a rerank server."""
    from dataclasses import replace

    from clsd_format.defaults import ENDPOINT_PREFIX, RERANK_PREFIX
    from clsd_format.errors import CLSDError

    endpoint = bool(endpoint_url and endpoint_model) or bool(model and model.startswith(ENDPOINT_PREFIX))
    if not endpoint and not (model and model.startswith(RERANK_PREFIX)):
        if options:
            raise CLSDError(
                f"{next(iter(options))} applies to served models (endpoint:MODEL@URL, rerank:MODEL@URL, --endpoint-url); "
                f"{model or 'the default model'} runs in this process"
            )
        return None  # decided before mteb is imported: a mistake in the other arguments is answered in seconds
    from clsd_mteb.encoders.openai_endpoint import EndpointConfig
    from clsd_mteb.encoders.rerank_endpoint import RerankConfig

    config: ServedConfig
    if endpoint_url and endpoint_model:
        config, takes = EndpointConfig(base_url=endpoint_url, model=endpoint_model), SERVED_OPTIONS | EMBEDDING_OPTIONS
    elif endpoint:
        config, takes = EndpointConfig.from_spec(model or ""), SERVED_OPTIONS | EMBEDDING_OPTIONS
    else:
        config, takes = RerankConfig.from_spec(model or ""), SERVED_OPTIONS
    for option in options:
        if option not in takes:
            raise CLSDError(f"{option} applies to embeddings endpoints only, not to the {config.kind} {model}")
    return replace(config, **{takes[option]: value for option, value in options.items()})


def _load_tasks(source: DataSource, names: list[str] | None, *, limit: int | None, exact: bool, err: bool) -> list[AbsTask]:
    """The run's tasks with their data read (the release: fetched and checked), then one line saying what was read."""
    from clsd_mteb import get_tasks

    selected = get_tasks(names, source=source, limit=limit, exact=exact)  # the source resolved once, not again
    for task in selected:
        task.load_data()
    line = f"Data: {source.describe()}; {len(selected)} task(s)" + (f", first {limit} rows each" if limit else "")
    typer.echo(line, err=err)
    return list(selected)


def _table1(
    scored: dict[str, dict[str, tuple[float, int, float | None]]],
    hits: Hits,
    facts: tuple[dict[str, dict[str, list[str]]], dict[str, str]],
) -> tuple[Table1, list[str]]:
    """Table 1 of the run's (P@1, rows) per model and task, each value with its interval and the models tied with
    each column's best; and the answer's lines when the table offers a choice (two models, or both settings).
    ``facts``: the tasks whose languages each model declares no training in, and why a pivot set was not built."""
    untrained, pivot_not_built = facts
    from clsd_analysis.answer import answer_lines
    from clsd_analysis.comparisons import mark_ties, model_comparisons, pivot_tests
    from clsd_analysis.tables import AVERAGE, build_table1, mark_untrained

    scores = {model: {task: p1 for task, (p1, _, _) in per_task.items()} for model, per_task in scored.items()}
    rows = {model: {task: n for task, (_, n, _) in per_task.items()} for model, per_task in scored.items()}
    chance = {model: {task: c for task, (_, _, c) in per_task.items()} for model, per_task in scored.items()}
    table = build_table1(scores, num_rows=rows, chance=chance)
    mark_untrained(table, untrained)
    mark_ties(table, model_comparisons(hits)[0])
    choice = len(table.models) > 1 or len(table.settings_of(AVERAGE)) > 1
    return table, answer_lines(table, pivot_tests(hits), pivot_unmeasured=pivot_not_built) if choice else []


def _pivot_not_built(source: DataSource) -> dict[str, str]:
    """Direct task -> why its pivot set was not built, as a Hub-format dataset's card says (read with the source)."""
    from clsd_format import hub

    return hub.pivot_not_built(source.card, source.describe()) if source.card else {}


def _prediction_hits(
    encoders: Sequence[EncoderProtocol | CrossEncoderProtocol],
    scored: dict[str, dict[str, tuple[float, int, float | None]]],
    output: Path,
    limit: int | None,
) -> Hits:
    """Per-row hits of each model and task of the run, from the prediction files it wrote (or kept): a trial's own rows."""
    from clsd_analysis.results import PREDICTIONS_SUFFIX, ModelRun, read_predictions
    from clsd_mteb.run import prediction_folder
    from clsd_mteb.trials import trial_split

    split = schema.HUB_SPLIT if limit is None else trial_split(limit)  # a trial's rows are filed apart

    hits: dict[str, dict[str, dict[str, bool]]] = {}
    for encoder in encoders:
        meta, folder = encoder.mteb_model_meta, prediction_folder(output, encoder)
        run = ModelRun(str(meta.name), str(meta.revision), folder.name)
        for task in scored.get(run.name, {}):
            path = folder / f"{task}{PREDICTIONS_SUFFIX}"
            if path.is_file():
                hits.setdefault(run.name, {})[task] = read_predictions(path, run, task, split).correct()
    return hits


def _print_answer(answer: list[str], *, err: bool) -> None:
    """The answer's lines under Table 1 (on stderr when a format was asked for: stdout holds the table alone)."""
    if answer:
        typer.echo(
            "\nThe answer (95% intervals; exact McNemar tests on the same rows at 5%, ties with the best Holm-adjusted):", err=err
        )
        typer.echo("\n".join(f"- {line}" for line in answer), err=err)


def _print_table(table: Table1, table_format: TableFormat | None, *, drawn: bool) -> None:
    """Table 1 on stdout: drawn for a terminal (with the legend of its marks), or as Markdown, LaTeX or CSV."""
    from clsd_analysis import render

    if table_format == "latex":
        typer.echo(render.table1_latex(table), nl=False)
    elif table_format == "csv":
        typer.echo(render.table1_csv(table), nl=False)
    elif drawn:
        from rich.console import Console

        console = Console()
        console.print()
        console.print(render.table1_rich(table, title="Precision@1 (%)"))
        if table.alignment:
            console.print(render.TERMINAL_LEGEND, highlight=False)
        if table.intervals:
            console.print(render.INTERVAL_LEGEND, highlight=False)
    else:
        if table_format is None:  # Markdown in a log, among the progress lines: a heading says what follows
            typer.echo("\nPrecision@1 (%):\n")
        typer.echo(render.table1_markdown(table))
        if table.alignment:
            typer.echo("\n" + render.ALIGNMENT_LEGEND)
        if table.intervals:
            typer.echo("\n" + render.INTERVAL_LEGEND)


def _encoders(model: str | None, device: str | None, served: ServedConfig | None) -> list[EncoderProtocol | CrossEncoderProtocol]:
    """The served model, or the model asked for; without either, the default model beside the n-gram baseline.

    The baseline takes seconds, and the first table a user sees then already says how far the model
    is above surface overlap.
    """
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model, load_served

    if served is not None:
        return [load_served(served)]
    return [load_model(model, device=device)] + ([load_model(CHAR_NGRAM_NAME)] if model is None else [])


def _warn_untrained(
    encoders: Sequence[EncoderProtocol | CrossEncoderProtocol], tasks: Sequence[AbsTask]
) -> dict[str, dict[str, list[str]]]:
    """One line on stderr per model and task language the model declares no training in, before the run: its
    scores there may say more about shared numbers and names than about the model. The same facts, by model and
    task, mark those models in the answer."""
    from clsd_mteb.model_languages import untrained_by_model, untrained_warnings

    metas = [encoder.mteb_model_meta for encoder in encoders]
    for line in untrained_warnings(metas, tasks):
        typer.echo(line, err=True)
    return untrained_by_model(metas, tasks)


def _evaluate_one(
    encoder: EncoderProtocol | CrossEncoderProtocol,
    tasks: Sequence[AbsTask],
    output: Path,
    *,
    batch_size: int,
    overwrite: bool,
    progress: ConsoleProgress,
) -> dict[str, dict[str, tuple[float, int, float | None]]]:
    """Run (or reuse) one model's results on the tasks, a line per task; its (P@1, rows, P@1 of guessing) by model
    name and task."""
    from clsd_mteb.confidence import chance_of
    from clsd_mteb.run import evaluate_tasks, prediction_folder

    meta = encoder.mteb_model_meta
    progress.echo(f"{meta.name} (revision {meta.revision})")
    start = time.perf_counter()
    results = evaluate_tasks(
        encoder,
        tasks,
        output,
        batch_size=batch_size,
        overwrite=overwrite,
        show_progress_bar=progress.watched,  # mteb's bars, where a person watches them
        progress=progress,
    )
    progress.echo(f"  {time.perf_counter() - start:.0f} s in all; predictions: {prediction_folder(output, encoder)}")
    return {
        str(meta.name): {
            r.task_name: (
                r.get_score(),
                int(r.get_score(getter=lambda scores: scores["num_rows"])),
                next((chance_of(scores) for split in r.scores.values() for scores in split), None),
            )
            for r in results.task_results
        }
    }


@app.command("export-release")
def export_release_command(
    out: Annotated[
        Path,
        typer.Argument(
            metavar="OUT",
            callback=folder_callback("folder to write into", may_be_missing=True),
            help="New folder to write the Hub-format dataset into.",
        ),
    ],
    data_dir: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            callback=folder_callback("data folder"),
            help=f"Where the release CSVs are (default: ${DATA_DIR_ENV}, else fetched).",
        ),
    ] = None,
) -> None:
    """Write the release as one Hub-format dataset.

    Eight configs, one per released task, and a dataset card that names the files read and their SHA-256.
    """
    from clsd_mteb.publishing.release_export import export_release

    folder = export_release(out, data_dir=data_dir)
    typer.echo(f"Wrote {folder}")
