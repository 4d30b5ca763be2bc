#!/usr/bin/env python3
"""A throw-away SMTP server for tests: accepts every mail on 127.0.0.1 and saves it.

Usage: smtp-sink.py DIR [--port N]

Listens on 127.0.0.1 only, on port N (default 0: a free port the kernel picks), and
prints one line `PORT <n>` on stdout once it accepts connections. Every message it
receives becomes two files in DIR, written atomically (temp file, then rename):
  <stem>.eml   the message exactly as received (CRLF line ends, dots unstuffed)
  <stem>.json  {"mail_from": ..., "rcpt_tos": [...], "eml": "<stem>.eml"}
The .json file is written last, so a reader that waits for it sees the whole mail.
It exits when its standard input closes (so it never outlives the test that started
it) or on SIGTERM/SIGINT. Needs aiosmtpd (pip install aiosmtpd).
"""

import argparse
import asyncio
import json
import os
import signal
import sys
import time

from aiosmtpd.smtp import SMTP


class SaveHandler:
    """Saves each message with its envelope into a folder."""

    def __init__(self, folder):
        self.folder = folder
        self.seq = 0

    def _write(self, name, data):
        tmp = os.path.join(self.folder, "." + name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, os.path.join(self.folder, name))

    async def handle_DATA(self, server, session, envelope):
        self.seq += 1
        # Names sort in arrival order, also across restarts of the sink.
        stem = "%020d-%06d" % (time.time_ns(), self.seq)
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        self._write(stem + ".eml", content)
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            "eml": stem + ".eml",
        }
        self._write(stem + ".json", json.dumps(meta).encode("utf-8"))
        return "250 Message accepted for delivery"


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)

    loop = asyncio.get_running_loop()
    handler = SaveHandler(args.folder)
    server = await loop.create_server(
        lambda: SMTP(handler, hostname="sink.test", decode_data=False),
        host="127.0.0.1",
        port=args.port,
        reuse_address=True,
    )
    port = server.sockets[0].getsockname()[1]
    print("PORT %d" % port, flush=True)

    done = loop.create_future()

    def stop(*_):
        if not done.done():
            done.set_result(None)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    # Stop when stdin reaches end of file: the parent has gone away.
    loop.run_in_executor(None, lambda: (sys.stdin.buffer.read(), loop.call_soon_threadsafe(stop)))
    await done
    server.close()
    await server.wait_closed()


if __name__ == "__main__":
    asyncio.run(main())
