"""Checks of distractor candidates: an LLM answer parsed into candidates, the checks of an LLM's answers, the automatic validation."""
