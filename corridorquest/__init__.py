"""Corridor Quest: a self-hosted server for a Quoridor-like game."""

__version__ = "0.1.0"
