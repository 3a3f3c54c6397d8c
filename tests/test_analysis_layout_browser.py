"""The viewer with ``truco analyze``'s marks (issue 43) in English and Brazilian Portuguese at
a phone's width and a desktop's: the evaluation bar's words whole inside the bar (they wrap on
a phone: the bar grows with them), and, at every step, the viewer's layout checks
(tests/test_viewer_browser.py's ``_LAYOUT``: nothing wider than the window, nothing cut off).
Marked ``browser`` as the viewer's browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import i18n
from engine.analysis import analyse
from engine.viewer import replay_page
from tests import test_viewer_browser
from tests.conftest import REPO
from tests.test_viewer_browser import _LAYOUT, Page

pytestmark = pytest.mark.browser
browser = test_viewer_browser.browser

LOG = REPO / "replays" / "paulista-seed1.jsonl"

#: The evaluation bar's words inside the bar, at every step (the page walked by its button).
_BAR = """() => {
  const out = [];
  const last = Number(document.body.dataset.steps || 0);
  for (let i = 0; i < 80; i++) {
    const bar = document.getElementById("evalbar").getBoundingClientRect();
    const text = document.getElementById("evaltext").getBoundingClientRect();
    if (text.bottom > bar.bottom + 0.5 || text.right > bar.right + 0.5 || text.height < 10) {
      out.push("step " + document.body.dataset.step + ": the bar's words out of the bar");
    }
    if (document.documentElement.scrollWidth > window.innerWidth) {
      out.push("step " + document.body.dataset.step + ": the page is wider than the window");
    }
    const next = document.getElementById("next");
    if (next.disabled) { break; }
    next.click();
  }
  return out;
}"""


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return analyse(LOG.read_bytes(), LOG.name, playouts=6)


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_analysis_marks_fit_the_window(browser: Any, tmp_path: Path, report: dict[str, Any],
                                           lang: str, width: int) -> None:
    with i18n.using(lang):
        html, problem = replay_page(LOG.read_bytes(), LOG.name, analysis=report)
    assert problem is None
    path = tmp_path / "analysis.html"
    path.write_text(html, encoding="utf-8")
    page = Page(browser, path, "#m=0")
    page.page.set_viewport_size({"width": width, "height": 800})
    assert page.page.evaluate("document.documentElement.lang") == lang
    assert page.page.is_visible("#evalbar")
    problems = page.page.evaluate(_BAR)
    assert problems == [], "\n".join(problems[:20])
    page.go("#m=0")
    problems = page.page.evaluate(_LAYOUT)
    assert problems == [], "\n".join(problems[:20])
    assert page.errors == []
    page.close()
