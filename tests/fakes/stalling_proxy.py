"""A loopback TCP proxy that can stall: it keeps every connection open and accepts new ones, but stops
forwarding bytes either way until resumed — a database that hangs rather than refuses.

It runs its own event loop in a thread of its own, so code that talks to the database synchronously
(on the test's event loop or in worker threads) never waits on the loop it is blocking.

    with StallingProxy("127.0.0.1", 5432) as proxy:
        url = url.set(host=proxy.host, port=proxy.port)
        proxy.stall()
        ...
        proxy.resume()
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import TracebackType


class StallingProxy:
    host = "127.0.0.1"

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self._upstream = (upstream_host, upstream_port)
        self._loop = asyncio.new_event_loop()
        self._flowing = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self._loop.run_forever, name="stalling-proxy", daemon=True)
        self.port = 0

    def __enter__(self) -> StallingProxy:
        self._thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=10)
        self.resume()
        return self

    def __exit__(
        self, _type: type[BaseException] | None, _value: BaseException | None, _tb: TracebackType | None
    ) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def stall(self) -> None:
        """Stop forwarding: bytes sent either way are held, not delivered, not refused."""
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def resume(self) -> None:
        """Forward again, starting with everything held during the stall."""
        self._loop.call_soon_threadsafe(self._flowing.set)

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._connect, self.host, 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _connect(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(*self._upstream)
        except OSError:
            client_writer.close()
            return
        self._writers |= {client_writer, server_writer}
        await asyncio.gather(
            self._pipe(client_reader, server_writer),
            self._pipe(server_reader, client_writer),
            return_exceptions=True,
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()
            self._writers.discard(writer)

    async def _close(self) -> None:
        self._flowing.set()
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        for task in asyncio.all_tasks():
            if task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
