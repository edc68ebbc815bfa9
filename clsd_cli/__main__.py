"""``python -m clsd_cli`` runs the ``clsd`` command."""

from clsd_cli.app import main

main()
