"""``clsd answer-requests``: a round's request file answered by Ray Data, for ``clsd generate --answers``.

The command a cluster job runs (``ray job submit -- clsd answer-requests ...``); it prints what
:func:`clsd_generation.llm.ray_batch.answer_requests` returns for the settings made from its options. Ray is
imported only when it runs (the ``ray`` extra).
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_cli.step_result import print_result
from clsd_generation.llm.ray_batch import HttpEndpoint, RequestPair

app = typer.Typer()


@declared_command(app)
def answer_requests(files: RequestPair, endpoint: HttpEndpoint) -> None:
    """Answer a request file with Ray Data.

    Each request of REQUESTS (written by `clsd generate --requests-out`) is posted to the OpenAI-compatible server at
    --base-url by Ray Data workers (a Ray cluster the process joins, or a local one); ANSWERS is written whole, in the
    batch output format, each line with its request's custom_id: then `clsd generate ... --answers ANSWERS`."""
    from clsd_generation.llm.ray_batch import answer_requests as answer

    print_result(answer(files.requests, files.answers, endpoint))
