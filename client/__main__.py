"""``python -m client ARGS`` runs ``cq``; ``python -m client shell ARGS`` runs ``cq-shell``.

This is also the entry point of ``cq.pyz`` (``python3 cq.pyz game list``,
``python3 cq.pyz shell``), which has one entry for both programs.
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["shell"]:
        from client.shell.app import shell

        shell(args=sys.argv[2:], prog_name="cq-shell")
    else:
        from client.cli import main as cq_main

        cq_main()


if __name__ == "__main__":
    main()
