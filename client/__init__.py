"""The Corridor Quest terminal clients: ``cq`` (click) and ``cq-shell`` (prompt-toolkit).

The clients talk to a server over HTTP only (see docs/api.md); the only server code they
use is the pure rules engine ``corridorquest.engine`` (notation and legal actions), so that
``cq.pyz`` can bundle ``client/`` and ``corridorquest/engine`` alone.
"""

__version__ = "0.1.0"
