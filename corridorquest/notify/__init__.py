"""Notifications (SPEC §9): who hears what of each event, the durable outbox's worker,
and the transports (e-mail in corridorquest/mail, ntfy here).

- `audience.py`: the e-mails and ntfy messages of an event, as each receiver may see it;
- `deliveries.py`: what those are made of (`Mail`, `Push`, `Told`) and the `Plan` that
  gathers one event's, leaving out what must not go out;
- `facts.py`: the game, players and users an event's notifications read;
- `wording.py`: their words;
- `address.py`: how they name the server and link a game's page (PUBLIC_URL);
- `worker.py`: works out kept events and delivers the outbox (store/outbox.py): events,
  mail and ntfy in three loops that never wait for one another;
- `ntfy.py`: publishing with httpx;
- `digest.py`: the daily digest (a scheduler sweep).
"""
