"""A local Ray cluster for the tests that run Ray (the ``ray`` extra): started once per module, logs under pytest's tmp.

``ray.init`` in the test's process, a few logical CPUs (Ray's count of what tasks may ask, not cores),
no dashboard, its session folder (logs, sockets, spilled objects) under the test's temporary folder, token
authentication off (a cluster of this process on 127.0.0.1: no token file written to the home folder). The address
is exported as ``RAY_ADDRESS`` so that a command the test starts joins this cluster, as a cluster job does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

LOGICAL_CPUS = 4


@contextmanager
def local_ray(folder: Path) -> Iterator[str]:
    """Start the cluster, yield its address, shut it down and restore the environment."""
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install -e '.[ray]'")
    saved = {key: os.environ.get(key) for key in ("RAY_AUTH_MODE", "RAY_ADDRESS")}
    os.environ["RAY_AUTH_MODE"] = "disabled"
    folder.mkdir(parents=True, exist_ok=True)
    context = ray.init(num_cpus=LOGICAL_CPUS, include_dashboard=False, _temp_dir=str(folder), log_to_driver=False)
    os.environ["RAY_ADDRESS"] = context.address_info["address"]
    try:
        yield os.environ["RAY_ADDRESS"]
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
