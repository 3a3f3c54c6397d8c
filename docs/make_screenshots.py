"""Make docs/screenshots/: what a player sees, in English and Brazilian Portuguese, at a
phone's width (360 px) and a desktop's (1280 px), with docs/make_screenshot.py's tooling
(Debian's ``chromium`` through playwright's ``executable_path``; nothing is downloaded):

- ``table-LANG-WIDTH.png``: the live table of ``truco serve`` (a server on loopback with
  ``--fixed-seeds``, a Paulista table of four person seats, seed 1), seat 0's page mid-hand
  after Bia asks truco: its answer buttons;
- ``viewer-LANG-WIDTH.png``: the replay viewer of replays/paulista-seed1.jsonl at step 39 (Bia
  asks seis, three cards on the table);
- ``analysis-LANG-WIDTH.png``: the same page annotated by ``truco analyze`` (default
  precision, seed 0) at step 62 (a blunder marked, the evaluation bar).

    python docs/make_screenshots.py        # writes the 12 PNGs of docs/screenshots/

The inputs are fixed (seed, moves, log): a run gives the same pictures. Needs the ``browser``
extra and ``apt-get install chromium`` (or ``TRUCO_CHROMIUM=PATH``).
"""

from __future__ import annotations

import socket
import struct
import sys
import tempfile
import threading
import time
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from make_screenshot import ANALYSIS_STEP, LOG, STEP, chromium  # noqa: E402

from engine import i18n  # noqa: E402
from engine.analysis import analyse  # noqa: E402
from engine.viewer import replay_page  # noqa: E402

OUT = HERE / "screenshots"
LANGS = ("en", "pt-BR")
#: Each width with the height of its first screen (a phone's taller: the answer buttons).
SIZES = {360: 860, 1280: 800}
MOVES = "Number(document.body.dataset.moves)"


def _serve(data: Path) -> tuple[Any, str]:
    """``truco serve --fixed-seeds`` over loopback in a thread: the server and its address."""
    import uvicorn

    from engine.serve import Limits, config

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(config(data, port=port, limits=replace(Limits(), fixed_seeds=True)))
    threading.Thread(target=server.run, daemon=True).start()
    for _ in range(1200):
        if server.started:
            return server, f"http://127.0.0.1:{port}"
        time.sleep(0.05)
    sys.exit("make_screenshots: the server did not start")


def _table(browser: Any, base: str, lang: str) -> list[Any]:
    """A Paulista table of four person seats (seed 1), each seat's page in ``lang``: two
    cards played, then seat 1 asks truco; the pages (seat 0's shows the answer buttons)."""
    import json
    import urllib.request

    body = json.dumps({"variant": "paulista", "seats": ["human"] * 4, "seed": 1,
                       "names": ["Ana", "Bia", "Caio", "Duda"]}).encode()
    request = urllib.request.Request(base + "/api/tables", body,
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        links = [s["link"] for s in json.loads(r.read())["seats"]]
    pages = []
    for link in links:
        context = browser.new_context(locale=lang, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"{base}{link.replace('#', f'?lang={lang}#')}")
        page.wait_for_function(f"{MOVES} >= 0")
        pages.append(page)
    for _ in range(20):
        if pages[0].query_selector("#menu button[data-kind='accept']"):
            return pages
        mover = next((p for p in pages if p.evaluate("document.body.dataset.mine === '1'")),
                     None)
        if mover is None:
            pages[0].wait_for_timeout(20)
            continue
        before = int(mover.evaluate(MOVES))
        raise_ = mover.query_selector("#menu button[data-kind='raise']")
        if before >= 2 and mover is pages[1] and raise_ is not None:
            raise_.click()
        else:
            mover.click("#menu button[data-kind='play']")
        for p in pages:
            p.wait_for_function(f"{MOVES} > {before}")
    sys.exit("make_screenshots: no raise came to seat 0")


def _viewer_file(folder: Path, lang: str, analysis: dict[str, Any] | None) -> Path:
    file = f"replays/{LOG.name}"
    with i18n.using(lang):
        text, problem = replay_page(LOG.read_bytes(), file, analysis=analysis)
    if problem is not None:
        sys.exit(f"make_screenshots: {problem}")
    name = "analysis" if analysis else "viewer"
    path = folder / f"{name}-{lang}.html"
    path.write_text(text, encoding="utf-8")
    return path


def _small(png: bytes) -> bytes:
    """The same PNG, its image data deflated again at zlib's best (Chromium's is fast: about
    an eighth larger)."""
    pos, chunks, data = 8, [], b""
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IDAT":
            data += body
        else:
            chunks.append((kind, body))
    idat = (b"IDAT", zlib.compress(zlib.decompress(data), 9))
    out = png[:8]
    for kind, body in chunks[:-1] + [idat, chunks[-1]]:  # the last: IEND
        crc = zlib.crc32(kind + body)
        out += struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)
    return out


def _shoot(page: Any, name: str, errors: list[str], top: str | None = None) -> None:
    """``name``-WIDTH.png at each width; on a phone, scrolled to ``top`` (an element's id)
    where the interesting part is below the table."""
    for width, height in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        scroll = f"document.getElementById('{top}').scrollIntoView()" if top and width < 600 \
            else "window.scrollTo(0, 0)"
        page.evaluate(scroll)
        if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
            errors.append(f"{name}-{width}: wider than the window")
        out = OUT / f"{name}-{width}.png"
        out.write_bytes(_small(page.screenshot()))
        print(f"wrote {out.relative_to(HERE.parent)}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    report = analyse(LOG.read_bytes(), f"replays/{LOG.name}")
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server, base = _serve(Path(folder) / "data")
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for lang in LANGS:
            pages = _table(browser, base, lang)
            pages[0].on("pageerror", lambda e: errors.append(str(e)))
            _shoot(pages[0], f"table-{lang}", errors)
            for kind, analysis, step in (("viewer", None, STEP),
                                         ("analysis", report, ANALYSIS_STEP)):
                page = browser.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(_viewer_file(Path(folder), lang, analysis).as_uri() + f"#m={step}")
                _shoot(page, f"{kind}-{lang}", errors, "evalbar" if analysis else None)
                page.close()
        browser.close()
        server.should_exit = True
    if errors:
        sys.exit(f"make_screenshots: {errors}")


if __name__ == "__main__":
    main()
