"""``python -m admin``: the same as the ``cq-admin`` console script."""

from admin.cli import main

if __name__ == "__main__":
    main()
