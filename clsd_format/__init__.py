"""The CLSD data format, shared by the mteb plugin (``clsd_mteb``) and the generator (``clsd_generation``).

Holds the Hub format (column names, reading, writing and validating a dataset folder, dataset-card
templates), what the authors' release is (its files, checksums and task names) and which data source a
run reads, the language table, strict CSV/TSV reading, the text measures (word tokeniser, Jaccard, edit
similarity and its bins), the offline taggers, the error types and the one error handler of every
command line, and the defaults the library and ``--help`` share. Kept free of mteb and torch so that
generating a dataset never pays for them.
"""
