"""Game analysis (SPEC §16): each ply of a finished game judged by the bots' engine.

Pure like the bots: imports only `corridorquest.engine` and `corridorquest.bots`, no I/O, no
clock; the same record always gives the same analysis. The server computes it once, in a
worker process, and stores it (`corridorquest.services.analyses`).
"""

from corridorquest.analysis.plies import (
    ANALYSIS_LEVEL,
    ANALYSIS_SEED,
    MISTAKE_DROP,
    PlyAnalysis,
    analyse,
)

__all__ = ["ANALYSIS_LEVEL", "ANALYSIS_SEED", "MISTAKE_DROP", "PlyAnalysis", "analyse"]
