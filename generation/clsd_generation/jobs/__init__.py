"""What every distractor backend shares: the job of one sentence and how answers settle it (:mod:`.state`), and
the one call shape of a backend (:mod:`.backend`). Above :mod:`clsd_generation.checks`, below the backends."""
