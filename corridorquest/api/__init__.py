"""The HTTP API (Sanic): thin handlers, one blueprint per domain; `app.mount_api(app)` adds
them to the application that corridorquest/composition builds."""
