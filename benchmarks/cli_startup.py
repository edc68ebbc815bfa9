"""How long does ``clsd`` take to answer ``--help``, against the import it used to pay first?

Runs, each ``--repeat`` times in a fresh process, and prints the median wall time and the median CPU
time (user + system, which a busy machine inflates much less than wall time) of:
  - ``clsd --help`` and ``clsd <command> --help`` for every command (``python -m clsd_cli``);
  - ``python -c "import clsd_mteb"``: registering the tasks with mteb, which every ``--help`` paid
    before the command line moved out of the plugin package;
  - ``python -c "pass"``: the interpreter's own start, which no command can avoid.
The last line is ``help_ratio=<slowest --help / import clsd_mteb>``. Target: every ``--help`` under 1 s.

    python benchmarks/cli_startup.py
    python benchmarks/cli_startup.py --repeat 9
    python benchmarks/cli_startup.py --quick        # one run each, the first two commands only
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

from _common import add_quick, announce_quick

QUICK_COMMANDS = 2


def median_seconds(argv: list[str], repeat: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of ``repeat`` runs of ``argv``."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def line(label: str, times: tuple[float, float], note: str = "") -> str:
    return f"{label:30s} wall {times[0]:6.2f} s   cpu {times[1]:6.2f} s{note}"


def command_names() -> list[str]:
    from clsd_cli.app import app

    return [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands if c.callback and not c.hidden]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (the median is printed)")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1
        announce_quick(f"one run each, the first {QUICK_COMMANDS} commands only")
    clsd = [sys.executable, "-m", "clsd_cli"]
    interpreter = median_seconds([sys.executable, "-c", "pass"], args.repeat)
    plugin_import = median_seconds([sys.executable, "-c", "import clsd_mteb"], args.repeat)
    print(line("python -c pass", interpreter))
    print(line("python -c 'import clsd_mteb'", plugin_import, "  (what every --help paid before)"))
    helps = {"clsd --help": median_seconds([*clsd, "--help"], args.repeat)}
    for name in command_names()[: QUICK_COMMANDS if args.quick else None]:
        helps[f"clsd {name} --help"] = median_seconds([*clsd, name, "--help"], args.repeat)
    for label, times in helps.items():
        print(line(label, times))
    slowest = max(wall for wall, _ in helps.values())
    print(f"slowest --help: wall {slowest:.2f} s (target < 1 s)")
    print(f"help_ratio={slowest / plugin_import[0]:.3f}")


if __name__ == "__main__":
    main()
