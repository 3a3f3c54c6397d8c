"""``truco serve`` as a separate process under floods and bad input (issue 40, defect 5
and "no traceback in the server's log"): a real ``truco serve`` on a loopback port, its
standard error read after it stops. Slow (subprocesses, a header deadline waited out)."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from tests.serve_util import Running, free_port, raw_socket, read_all


@contextlib.contextmanager
def truco_serve(tmp_path: Path, *options: str, preexec: Callable[[], None] | None = None
                ) -> Iterator[Running]:
    """``truco serve`` in its own process on a free loopback port, listening; stopped with
    SIGINT at the end, its standard error then in ``tmp_path / "stderr"``."""
    port = free_port()
    with (tmp_path / "stderr").open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(port),
                                 "--data", str(tmp_path / "data"), *options], stderr=out,
                                stdout=subprocess.DEVNULL, preexec_fn=preexec)
    try:
        for _ in range(1200):  # until it accepts connections (or has exited)
            assert proc.poll() is None, "truco serve exited"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.05)
        server = Running.__new__(Running)
        server.port, server.base = port, f"http://127.0.0.1:{port}"
        yield server
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)


def test_no_bad_input_leaves_a_traceback_in_the_server_s_log(tmp_path: Path) -> None:
    """Also: a real ``truco serve`` given every bad input above (nesting, lone surrogates,
    bodies cut short or slow, half-open requests, binary and oversized frames, floods,
    connections dropped mid-join) answers each, and its log holds no traceback; its
    ``--client-tables`` holds."""
    with truco_serve(tmp_path, "--client-tables", "1") as server:
        bad = [b"[" * 960 + b"]" * 960, b'{"variant": "\\ud800"}', b'{"variant": {"a": 1}}',
               b'{"upload": {"name": "x", "text": "\\udfff"}}', b"\xff\xfe", b"[]"]
        for path in ("/api/check", "/api/tables"):
            for body in bad:
                s = raw_socket(server)
                s.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: "
                          + str(len(body)).encode() + b"\r\n\r\n" + body)
                assert b" 400 " in read_all(s).split(b"\r\n")[0], (path, body)
            cut = raw_socket(server)  # a body cut short: the client goes away
            cut.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Length: 100\r\n\r\n{")
            cut.close()
        raw_socket(server).close()  # a connection that sends nothing
        status, table = server.post("/api/tables", {"variant": "paulista",  # a secret seed
                                                     "seats": ["human", "easy", "easy", "easy"]})
        assert status == 201, table
        assert server.post("/api/tables", {"variant": "paulista", "seats": ["easy"] * 4}
                           )[0] == 429  # --client-tables 1
        token = table["seats"][0]["link"].split("#k=")[1]
        for messages in (['{"type":"join","token":"\\ud800"}'], [b"\x00"], ["x" * 70000],
                         [json.dumps({"type": "join", "token": token}),
                          '{"type":"state","x":' + "[" * 960 + "]" * 960 + "}",
                          *['{"type":"state"}'] * 200]):
            ws = server.ws(table["table"])
            for m in messages:
                with contextlib.suppress(ConnectionClosed):
                    ws.send(m)
            ws.close()
        watch = json.dumps({"type": "join", "token": table["spectator"].split("#k=")[1]})
        held = [server.ws(table["table"]) for _ in range(4)]  # the link's four connections
        for ws in held:
            ws.send(watch)
            ws.recv(timeout=30)
        for ws in [server.ws(table["table"]) for _ in range(10)] + [server.ws("no-such")]:
            with contextlib.suppress(ConnectionClosed):
                ws.send(watch)  # one too many (or no table), gone before it is told
            ws.close()
        assert server.get("/")[0] == 200
    log = (tmp_path / "stderr").read_text()
    assert "Traceback" not in log and "Error" not in log, log


def _few_files() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_half_open_requests_past_the_open_files_leave_the_server_reachable(
        tmp_path: Path) -> None:
    """Defect 5, as found: more half-open requests than the server may open files (here 300
    against a limit of 256) are each closed (at once past the limit, else at the header
    deadline); then the server answers, and its log holds no error."""
    with truco_serve(tmp_path, preexec=_few_files) as server:
        half = []
        for _ in range(300):
            s = raw_socket(server)
            with contextlib.suppress(OSError):
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            half.append(s)
        for s in half:  # each one closed by the server (none waits past the header deadline)
            with contextlib.suppress(ConnectionResetError):
                assert read_all(s) == b""
            s.close()
        assert server.get("/")[0] == 200
    log = (tmp_path / "stderr").read_text()
    assert "Traceback" not in log and "rror" not in log, log
