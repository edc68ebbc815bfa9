"""Build new CLSD datasets (see README)."""
