"""The command groups of ``cq``; each module holds one group or a few root commands.

Command modules import none of each other: what they share lives in helper modules they
import (``options``, ``game_group``, ``sessions``), and ``client/cli.py`` puts the
commands together (tests/test_layering.py checks it).
"""
