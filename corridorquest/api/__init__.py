"""The HTTP API (Sanic): `create_app(settings)`; thin handlers, one blueprint per domain."""
