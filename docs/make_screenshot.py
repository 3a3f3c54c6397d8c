"""Make docs/viewer.png, the README's picture of the replay viewer, with the browser tests'
own tooling: the page of ``truco replay replays/paulista-seed1.jsonl --html`` at one step,
opened from disk in headless Chromium (Debian's ``chromium``, through playwright's
``executable_path``; nothing is downloaded). With ``--analysis``, docs/analysis.png: the same
page annotated by ``truco analyze`` (default precision, seed 0), the evaluation bar and the
marks (``--analysis`` with ``truco replay``).

    python docs/make_screenshot.py            # writes docs/viewer.png
    python docs/make_screenshot.py --analysis # writes docs/analysis.png
    python docs/make_screenshot.py --step 19 --out /tmp/x.png

docs/make_screenshots.py makes the set of docs/screenshots/ (both languages, two widths).

Needs the ``browser`` extra (``pip install -e '.[browser]'``) and ``apt-get install chromium``
(or ``TRUCO_CHROMIUM=PATH``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.analysis import analyse  # noqa: E402
from engine.viewer import replay_page  # noqa: E402

LOG = REPO / "replays" / "paulista-seed1.jsonl"
STEP = 39  # Bia asks seis: three cards in front of their players, a raise pending
ANALYSIS_STEP = 62  # hand 10: Duda raises to nove where accepting was better: a blunder


def chromium() -> str:
    """The system's Chromium, or exit 1 saying it is missing."""
    found = os.environ.get("TRUCO_CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")
    if not found:
        sys.exit("make_screenshot: no Chromium (apt-get install chromium, or TRUCO_CHROMIUM=PATH)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=None)
    parser.add_argument("--seat", type=int, default=None, help="one seat's view")
    parser.add_argument("--analysis", action="store_true",
                        help="the page with truco analyze's annotations (docs/analysis.png)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    name = "analysis" if args.analysis else "viewer"
    args.out = args.out or REPO / "docs" / f"{name}.png"
    if args.step is None:
        args.step = ANALYSIS_STEP if args.analysis else STEP
    file = f"replays/{LOG.name}"
    analysis = analyse(LOG.read_bytes(), file) if args.analysis else None
    page_text, problem = replay_page(LOG.read_bytes(), file, analysis=analysis)
    if problem is not None:
        sys.exit(f"make_screenshot: {problem}")
    fragment = f"#m={args.step}" + ("" if args.seat is None else f"&seat={args.seat}")
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "viewer.html"
        html.write_text(page_text, encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 840})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(html.as_uri() + fragment)
            page.screenshot(path=str(args.out))
            browser.close()
    if errors:
        sys.exit(f"make_screenshot: the page failed: {errors}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
