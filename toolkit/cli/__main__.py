"""``python -m toolkit.cli``: the ``baccarat`` command."""

from toolkit.cli.app import main

main()
