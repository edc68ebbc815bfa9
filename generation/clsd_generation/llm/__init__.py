"""Everything that talks to an LLM: the live and batch distractor clients, the English pivot, the judge, prompts and answer parsing."""
