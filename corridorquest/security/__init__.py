"""Security primitives: password hashing, codes and tokens, login rate limits, HTTPS check.

Nothing here touches the database or HTTP; services and the API use these helpers.
Refusals are security's own errors (`errors.py`), which the services turn into theirs.
"""
