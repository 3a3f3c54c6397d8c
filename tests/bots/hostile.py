"""A bot that misbehaves as told, for tests/test_bot_protocol.py: ``hostile.py MODE [FILE]``.

Modes: ``good`` (the first legal move), ``record FILE`` (good, and every line it reads copied
to FILE), ``crash``, ``hang``, ``garbage``, ``illegal``, ``flood``, ``partial`` (a good move
written in two pieces), ``utf8`` (invalid UTF-8), ``fork`` (starts a child that sleeps, then
hangs), ``stubborn`` (ignores quit, SIGTERM and the end of its input), ``badhello``
(another protocol version), ``late`` (answers twice: the second answer arrives late),
``silent`` (no handshake), ``options`` (good, and its ``id`` names an option),
``badoptions`` (good, but an option of a type the protocol does not have), ``deaf``
(reads nothing after its handshake).
"""

import json
import os
import signal
import sys
import time

mode = sys.argv[1]
record = open(sys.argv[2], "ab") if mode == "record" else None  # noqa: SIM115
out = sys.stdout.buffer


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
    if kind == "hello":
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
    elif mode == "hang" and decisions == 3:
        time.sleep(3600)
    elif mode == "fork" and decisions == 3:
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
