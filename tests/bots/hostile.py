"""A bot that misbehaves as told, for tests/test_bot_protocol.py: ``hostile.py MODE [FILE]``.

Modes: ``good`` (the first legal move), ``record FILE`` (good, and every line it reads copied
to FILE), ``crash`` and ``flood`` (on decision 3), ``hang`` (on its first decision),
``garbage``, ``illegal``, ``partial`` (a good move written in two pieces), ``utf8`` (invalid
UTF-8), ``fork`` (on its first decision, starts a child that sleeps, then hangs),
``stubborn`` (ignores quit, SIGTERM and the end of its input), ``badhello`` (another
protocol version), ``late`` (answers twice: the second answer arrives late),
``silent`` (no handshake), ``options`` (good, and its ``id`` names an option),
``badoptions`` (good, but an option of a type the protocol does not have), ``deaf``
(reads nothing after its handshake), ``strict`` (good, but exits on a message of a type it
does not know), ``escape FILE`` (good, but on decision 3 starts a child that leaves its
session with setsid, writes both pids to FILE, then answers), ``hangescape`` (as ``escape``
without FILE, then hangs), ``noisy N`` (good, and writes N bytes on its standard error at
the start: ``a`` then ``b`` then ``c``).

With ``HOSTILE_TELL`` naming a named pipe, the bot writes ``PID`` there on ``hello`` (and
``PID CHILD`` once it has started an escaping child), for a test to wait on (not to poll).
"""

import json
import os
import signal
import sys
import time

mode = sys.argv[1]
record = open(sys.argv[2], "ab") if mode == "record" else None  # noqa: SIM115
out = sys.stdout.buffer
KNOWN = {"hello", "match", "events", "decision", "judge", "end", "quit"}


def tell(text):
    """A line to the test on HOSTILE_TELL (a named pipe it reads), if there is one."""
    where = os.environ.get("HOSTILE_TELL")
    if where:
        fd = os.open(where, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, f"{text}\n".encode())
        os.close(fd)


def escape():
    """A child that leaves the bot's session (setsid) and sleeps; its pid once it has."""
    ready, done = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        os.write(done, b"x")
        time.sleep(3600)
        os._exit(0)
    os.read(ready, 1)
    tell(f"{os.getpid()} {child}")
    return child


if mode == "noisy":
    size = int(sys.argv[2])
    third = size // 3
    sys.stderr.write("a" * third + "b" * (size - 2 * third) + "c" * third)
    sys.stderr.flush()


def say(message):
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
decisions = 0
for raw in sys.stdin.buffer:
    if record is not None:
        record.write(raw)
        record.flush()
    message = json.loads(raw)
    kind = message["type"]
    if kind not in KNOWN and mode == "strict":
        sys.stderr.write(f"hostile: unknown message type {kind!r}\n")
        sys.exit(2)
    if kind == "hello":
        tell(os.getpid())
        if mode == "silent":
            time.sleep(3600)
        options = {"options": [{"name": "level", "type": "spin", "default": 3, "min": 1,
                                "max": 5}]} if mode == "options" else {}
        if mode == "badoptions":
            options = {"options": [{"name": "level", "type": "slider"}]}
        say({"type": "id", "protocol": 99 if mode == "badhello" else 1, "name": mode,
             "author": "tests", **options})
        say({"type": "ready"})
        if mode == "deaf":
            time.sleep(3600)  # reads nothing more
        continue
    if kind == "quit" and mode != "stubborn":
        break
    if kind != "decision":
        continue
    decisions += 1
    move = {"type": "move", "id": message["id"], "move": message["legal"][0]}
    if mode == "crash" and decisions == 3:
        sys.stderr.write("hostile: crashing on decision 3\n")
        sys.exit(3)
    elif mode == "hang":  # from its first decision: no answer it gives depends on time
        time.sleep(3600)
    elif mode == "hangescape" and decisions == 3:
        escape()
        time.sleep(3600)
    elif mode == "escape" and decisions == 3:
        child = escape()
        with open(sys.argv[2], "w") as f:
            f.write(f"{os.getpid()} {child}\n")
        say(move)
    elif mode == "fork":
        if os.fork() == 0:
            time.sleep(3600)
        time.sleep(3600)
    elif mode == "garbage":
        out.write(b"this is not json\n")
        out.flush()
    elif mode == "illegal":
        say({**move, "move": "play 0 XX"})
    elif mode == "flood" and decisions == 3:
        while True:
            out.write(b"x" * 65536)
    elif mode == "partial":
        data = json.dumps(move).encode() + b"\n"
        out.write(data[:7])
        out.flush()
        time.sleep(0.05)
        out.write(data[7:])
        out.flush()
    elif mode == "utf8":
        out.write(b'{"type": "move", "move": "\xff\xfe"}\n')
        out.flush()
    elif mode == "late":
        say(move)
        say(move)  # read with the next decision: an old id, ignored
    else:
        say(move)
if mode == "stubborn":  # and outlives the end of its input
    time.sleep(3600)
