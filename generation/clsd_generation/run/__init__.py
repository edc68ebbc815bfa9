"""The run side of ``clsd generate``: corpus, jobs, checkpoint, lock, settings, the backend protocol and the run loop."""
