"""``cq-shell``: the cq commands in one interactive prompt-toolkit session."""
