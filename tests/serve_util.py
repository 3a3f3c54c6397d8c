"""A real ``truco serve`` for the tests: uvicorn in a thread on a free loopback port, and a
websocket client (the ``websockets`` library's) that joins a seat."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from engine.serve import Limits, config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raw_socket(server: Running, source: str = "127.0.0.1") -> socket.socket:
    """A plain TCP connection to the server, from ``source`` (another loopback address is
    another client)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=30,
                                    source_address=(source, 0))


def read_all(s: socket.socket) -> bytes:
    """Everything the server sends on ``s`` until it closes the connection."""
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


class Running:
    def __init__(self, data: Path, limits: Limits | None,
                 bot_commands: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(config(data, port=self.port, limits=limits,
                                            bot_commands=bot_commands))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        req = urllib.request.Request(self.base + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def table(self, variant: str, seats: list[str], seed: int = 1) -> dict[str, Any]:
        status, body = self.post("/api/tables", {"variant": variant, "seats": seats,
                                                 "seed": seed})
        assert status == 201, body
        return body

    def join(self, link: str, entropy: str | None = None) -> Client:
        table, token = link.split("/t/")[1].split("#k=")
        return Client(self.ws(table), token, entropy)

    def ws(self, table: str) -> ClientConnection:
        """A websocket to the table (the context manager entered: closed by its close())."""
        return connect(f"ws://127.0.0.1:{self.port}/t/{table}/ws").__enter__()


class Client:
    """A websocket client at one seat: ``hello`` and the first ``state`` read on joining."""

    def __init__(self, ws: ClientConnection, token: str, entropy: str | None = None) -> None:
        self.ws = ws
        self.asked = 0
        #: Every text received, as received.
        self.received: list[str] = []
        join = {"type": "join", "token": token}
        if entropy is not None:
            join["entropy"] = entropy
        self.sent(json.dumps(join))
        self.hello = self.next()
        self.state = self.next_state()

    def sent(self, text: str | bytes) -> None:
        self.ws.send(text)

    def next(self, timeout: float = 30) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str), "a binary message from the server"
        self.received.append(text)
        data: dict[str, Any] = json.loads(text)
        return data

    def next_state(self) -> dict[str, Any]:
        while True:
            msg = self.next()
            if msg["type"] == "state":
                self.state = msg
                return msg

    def error(self) -> dict[str, Any]:
        """The next error message (state messages before it are read past)."""
        while True:
            msg = self.next()
            if msg["type"] == "error":
                return msg
            self.state = msg

    def fresh(self) -> dict[str, Any]:
        """The state now: asks for it and reads up to the answer (the states broadcast before
        it read past)."""
        self.asked += 1
        self.sent(json.dumps({"type": "state", "ref": self.asked}))
        while True:
            msg = self.next()
            if msg["type"] == "state" and msg.get("ref") == self.asked:
                del msg["ref"]
                self.state = msg
                return msg

    def close(self) -> None:
        self.ws.close()


def play_out(clients: list[Client]) -> dict[str, Any]:
    """Play the match to its end, each client's last legal move when it has one; the final
    state."""
    for _ in range(5000):
        for c in clients:
            c.fresh()
        if clients[0].state["over"]:
            return clients[0].state
        mover = next((c for c in clients if c.state["legal"]), None)
        if mover is None:
            continue
        mover.sent(json.dumps({"type": "move", "move": mover.state["legal"][-1]["move"]}))
        mover.fresh()
    raise AssertionError("the match did not end")


@contextmanager
def running(data: Path, limits: Limits | None = None,
            bot_commands: dict[str, str] | None = None, *,
            fixed_seeds: bool = True) -> Iterator[Running]:
    """A server over loopback; by default it takes a fixed seed at any table
    (``--fixed-seeds``), so that the tests' tables deal known cards."""
    limits = replace(limits or Limits(), fixed_seeds=fixed_seeds)
    r = Running(data, limits, bot_commands)
    r.thread.start()
    for _ in range(600):
        if r.server.started:
            break
        time.sleep(0.05)
    assert r.server.started, "the server did not start"
    try:
        yield r
    finally:
        r.server.should_exit = True
        r.thread.join(30)
