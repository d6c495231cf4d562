"""The command groups of ``cq``; each module holds one group or a few root commands."""
