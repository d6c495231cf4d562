"""The notify worker's mail side: due mails claimed a batch at a time, delivered over
up to SMTP_CONNECTIONS connections side by side, and marked (see worker.py)."""

from __future__ import annotations

import asyncio

from corridorquest.mail.backends import MailBackend, deliver_all
from corridorquest.mail.message import build_message
from corridorquest.notify.outcomes import LEASE_SECONDS, SEND_BATCH, Marking, Result
from corridorquest.store import outbox

SMTP_CONNECTIONS = 4  # a batch's mails go over up to this many connections side by side


class MailSending(Marking):
    mail: MailBackend
    sender: str
    signature: str

    async def mail_round(self) -> int:
        """Claim, deliver and mark one batch of due mails; how many."""
        items = await self.ctx.store.transaction(
            outbox.claim_due, SEND_BATCH, LEASE_SECONDS, (outbox.MAIL,)
        )
        if items:
            mailed = await self._send_mails(items)
            results: list[Result] = [
                (item, error, None) for item, error in zip(items, mailed, strict=True)
            ]
            await self.ctx.store.transaction(self._record, results)
        return len(items)

    async def _send_mails(self, mails: list[outbox.Item]) -> list[Exception | None]:
        messages = [
            build_message(
                self.sender, m.payload["to"], m.payload["subject"],
                m.payload["body"].rstrip("\n") + "\n\n" + self.signature,
            )
            for m in mails
        ]
        # One connection per chunk, the chunks side by side; all the mails of one
        # recipient in one chunk, in outbox order (read in the order they happened).
        chunks: list[list[int]] = [[] for _ in range(min(SMTP_CONNECTIONS, len(messages)))]
        recipients: dict[str, int] = {}
        for index, mail in enumerate(mails):
            to = str(mail.payload["to"]).lower()
            slot = recipients.setdefault(to, len(recipients) % len(chunks))
            chunks[slot].append(index)
        chunks = [chunk for chunk in chunks if chunk]
        done = await asyncio.gather(
            *(deliver_all(self.mail, [messages[i] for i in chunk]) for chunk in chunks)
        )
        results: list[Exception | None] = [None] * len(messages)
        for chunk, outcome in zip(chunks, done, strict=True):
            for index, result in zip(chunk, outcome, strict=True):
                results[index] = result
        return results
