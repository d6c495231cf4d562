"""The server's announcement on the local network (mDNS/DNS-SD, SPEC §15).

`start(settings, port)` announces `_corridorquest._tcp` with a TXT record of the
server's version, name, URL and whether it speaks TLS (nothing about games or users),
when the DISCOVERY setting says so; `await stop(announcement)` withdraws it. Both do
their network work (python-zeroconf's blocking calls) in a thread of their own, never
on the server's event loop. `cq server find` is the listener (client/discovery.py).
"""

from corridorquest.discovery.announcement import (
    SERVICE_TYPE,
    Announcement,
    announced_url,
    enabled,
    served_port,
    start,
    stop,
)

__all__ = [
    "SERVICE_TYPE",
    "Announcement",
    "announced_url",
    "enabled",
    "served_port",
    "start",
    "stop",
]
