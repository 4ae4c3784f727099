"""Pushes updates to every open scoreboard over WebSocket.

Producers (the live pipeline thread, the API after a correction) call :meth:`Hub.publish` from any
thread; each connected socket has a small bounded queue, and a slow client loses old messages
rather than making the producer wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from typing import Any


class Hub:
    def __init__(self, queue_size: int = 64) -> None:
        self._queues: set[asyncio.Queue[str]] = set()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.queue_size = queue_size
        self.published = 0

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self) -> asyncio.Queue[str]:
        q: asyncio.Queue[str] = asyncio.Queue(maxsize=self.queue_size)
        with self._lock:
            self._queues.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue[str]) -> None:
        with self._lock:
            self._queues.discard(q)

    def publish(self, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        self.published += 1
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with self._lock:
            queues = list(self._queues)
        for q in queues:
            loop.call_soon_threadsafe(_put_dropping_oldest, q, text)


def _put_dropping_oldest(q: asyncio.Queue[str], text: str) -> None:
    if q.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            q.get_nowait()
    q.put_nowait(text)
