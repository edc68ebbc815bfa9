"""Defaults that the library and the ``clsd`` command both use, written once.

They live in the bottom layer because it imports nothing heavy: ``clsd evaluate --help`` shows them
without loading mteb (importing ``clsd_mteb`` registers the tasks and takes seconds).
"""

from __future__ import annotations

BATCH_SIZE = 32  # texts per encoding batch when the caller names none (mteb's own default)

# An OpenAI-compatible embeddings endpoint
ENDPOINT_KEY_ENV = "OPENAI_API_KEY"  # environment variable holding the API key
ENDPOINT_CONCURRENCY = 4  # requests in flight at once
ENDPOINT_RETRIES = 2  # retries per failed request (the openai client's back-off)
ENDPOINT_TIMEOUT_S = 120.0  # seconds per request attempt
