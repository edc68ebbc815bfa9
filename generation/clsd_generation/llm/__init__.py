"""Everything that talks to an LLM: the live, batch and request-file distractor clients, the English pivot, the judge and the prompts."""
