"""``cq-admin``: the administrator's tool of a Corridor Quest server (HTTP API only)."""

from client import __version__

__all__ = ["__version__"]
