"""Suite-wide test settings: hypothesis profiles.

HYPOTHESIS_PROFILE=ci: fewer examples, derandomized (reproducible CI runs);
HYPOTHESIS_PROFILE=thorough: many more examples, for a long local run.
Without it hypothesis's default profile applies.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=50, derandomize=True, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

# This process hashes with argon2's least parameters, as the test servers do
# (tests/support/server.py); a test about hashing's cost configures its own.
from corridorquest.security import passwords  # noqa: E402

passwords.configure(passwords.TEST_PARAMETERS)
