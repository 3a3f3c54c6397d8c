"""The replay viewer and the statistics pages in a real browser: headless Chromium (Debian's
``chromium``, driven through ``playwright`` pointed at it with ``executable_path``: nothing
downloads a browser). What a person sees is checked against the engine: at chosen steps the
score, the cards in front of each seat, the value and the pending raise; the keyboard, the move
list and the ``#m=`` fragment; a seat's view showing no card the engine's observation hides;
and no console error or page error anywhere.

Marked ``browser``: without Chromium or playwright these tests are skipped, the reason naming
what is missing; ``.ci/run`` installs both and sets ``TRUCO_BROWSER_REQUIRED=1``, which turns
that skip into a failure (on CI they run).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.logformat import record_random
from engine.simulate import run_simulation
from engine.telling import move_words
from engine.variant import load_variant
from engine.viewer import replay_page, simulate_page
from engine.viewer.steps import undelta
from tests.conftest import REPO
from tests.test_viewer import _payload, visible

pytestmark = pytest.mark.browser

CHROMIUM_NAMES = ("chromium", "chromium-browser")


def _chromium() -> str | None:
    given = os.environ.get("TRUCO_CHROMIUM")
    if given:
        return given if Path(given).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing() -> str | None:
    """What the browser tests lack, in words (``None``: nothing)."""
    lacks = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        lacks.append("the Python package playwright (pip install -e '.[browser]')")
    if _chromium() is None:
        lacks.append("a Chromium browser (apt-get install chromium; or TRUCO_CHROMIUM=PATH)")
    if not lacks:
        return None
    return "browser tests not run: missing " + " and ".join(lacks)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("TRUCO_BROWSER_REQUIRED"):
            pytest.fail(why + " (TRUCO_BROWSER_REQUIRED is set)")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


_LOOK = """() => {
  const card = c => c.classList.contains("face") ? c.dataset.card : null;
  const bySeat = sel => Object.fromEntries([...document.querySelectorAll(sel)].map(
    e => [e.dataset.seat, [...e.querySelectorAll(".card")].map(card)]));
  return {
    step: Number(document.body.dataset.step),
    faces: [...document.querySelectorAll(
      ".seat .card.face, .front .card.face, #pending .card.face")].map(c => c.dataset.card),
    fronts: bySeat(".front"),
    hands: Object.fromEntries([...document.querySelectorAll(".seat")].map(
      e => [e.dataset.seat, [...e.querySelectorAll(".hand .card")].map(card)])),
    words: document.querySelector("#now .what").innerText,
  };
}"""


class Page:
    """A page opened from disk, every console error and page error noted."""

    def __init__(self, browser: Any, path: Path, fragment: str = "") -> None:
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url)
                     if not r.url.startswith(("file:", "data:", "about:")) else None)
        self.page.goto(path.as_uri() + fragment)

    def step(self) -> int:
        return int(self.page.get_attribute("body", "data-step"))

    def go(self, fragment: str) -> None:
        self.page.evaluate(f"location.hash = {fragment!r}")
        step = fragment.split("=")[1].split("&")[0]
        self.page.wait_for_function(f"location.hash === {fragment!r} && "
                                    f"document.body.dataset.step === {step!r}")

    def fronts(self) -> dict[int, list[str | None]]:
        """The cards in front of each seat: a face's card, ``None`` for a card face down."""
        out: dict[int, list[str | None]] = {}
        for front in self.page.query_selector_all(".front"):
            seat = int(front.get_attribute("data-seat"))
            out[seat] = [c.get_attribute("data-card") for c in front.query_selector_all(".card")]
        return out

    def faces(self) -> set[str]:
        """Every card shown face up at the seats (hands and cards played)."""
        return {c.get_attribute("data-card")
                for c in self.page.query_selector_all(".seat .card.face, .front .card.face,"
                                                      " #pending .card.face")}

    def look(self) -> dict[str, Any]:
        """What the page shows now, read at once: the step, the cards face up at the seats
        (hands, cards played, the raise's card), the cards in front of each seat (``None``
        face down), each seat's hand (``None`` face down) and the words of the step."""
        look: dict[str, Any] = self.page.evaluate(_LOOK)
        look["fronts"] = {int(k): v for k, v in look["fronts"].items()}
        look["hands"] = {int(k): v for k, v in look["hands"].items()}
        look["faces"] = set(look["faces"])
        return look

    def close(self) -> None:
        self.page.close()


def _words(text: str) -> str:
    """Text as a browser shows it (runs of spaces are one)."""
    return " ".join(text.split())


def _page(tmp_path: Path, log: bytes, name: str) -> tuple[Path, list[dict[str, Any]]]:
    html, _ = replay_page(log, name)
    path = tmp_path / (name + ".html")
    path.write_text(html, encoding="utf-8")
    return path, undelta(_payload(html)["steps"])


def _expected_fronts(step: dict[str, Any], players: int, eye: int | None
                     ) -> dict[int, list[str | None]]:
    latest = max((p[0] for p in step["pl"]), default=0)
    out: dict[int, list[str | None]] = {s: [] for s in range(players)}
    for i, (rnd, seat, card, _) in enumerate(step["pl"]):
        if rnd == latest:
            seen = eye is None or i not in step["ov"][eye][2]
            out[seat].append(card if seen else None)
    return out


@pytest.fixture
def special(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    log = (REPO / "replays" / "paulista-special.jsonl").read_bytes()
    return _page(tmp_path, log, "paulista-special")


def test_at_chosen_steps_the_page_shows_the_engine_s_score_cards_value_and_raise(
        browser: Any, special: tuple[Path, list[dict[str, Any]]]) -> None:
    path, steps = special
    pending = next(i for i, s in enumerate(steps) if s["pr"] is not None)
    ended = next(i for i, s in enumerate(steps) if s.get("end"))
    later = [i for i, s in enumerate(steps) if s["sc"] != [0, 0]][5]
    page = Page(browser, path)
    for i in (0, 5, pending, ended, later, len(steps) - 1):
        step = steps[i]
        page.go(f"#m={i}")
        score = [int(page.page.inner_text(f'.team-score[data-team="{t}"] .points'))
                 for t in range(2)]
        assert score == step["sc"], i
        games = [page.page.inner_text(f'.team-score[data-team="{t}"] .games') for t in range(2)]
        assert games == [f"games {g}" for g in step["g"]]
        assert page.page.inner_text("#value") == str(step["v"])
        assert page.fronts() == _expected_fronts(step, 4, None), i
        text = page.page.inner_text("#pending")
        if step["pr"] is None:
            assert text == "none"
        else:
            seat, value, name, _ = step["pr"]
            names = ["Ana", "Bia", "Caio", "Duda"]
            assert f"{names[seat]} asks {name} ({value})" in text
        for seat, cards in enumerate(step["hs"]):  # all cards: every hand face up
            shown = page.page.eval_on_selector_all(
                f'.seat[data-seat="{seat}"] .hand .card', "cs => cs.map(c => c.dataset.card)")
            assert shown == cards
        assert page.page.inner_text("#now .what") == _words(step["tx"])
    assert page.errors == [] and page.requests == []
    page.close()


def test_the_keyboard_the_buttons_the_move_list_and_the_fragment(
        browser: Any, special: tuple[Path, list[dict[str, Any]]]) -> None:
    path, steps = special
    deals = [i for i, s in enumerate(steps) if s["k"] == "deal"]
    page = Page(browser, path, "#m=37")
    assert page.step() == 37
    assert page.page.inner_text("#now .what") == _words(steps[37]["tx"])
    assert "current" in (page.page.get_attribute('#moves li[data-step="37"]', "class") or "")
    keys = page.page.keyboard
    keys.press("ArrowRight")
    assert page.step() == 38
    keys.press("ArrowLeft")
    keys.press("ArrowLeft")
    assert page.step() == 36
    here = max(d for d in deals if d <= 36)
    after = min(d for d in deals if d > 36)
    keys.press("ArrowDown")
    assert page.step() == after
    keys.press("PageDown")
    assert page.step() == min(d for d in deals if d > after)
    keys.press("PageUp")
    assert page.step() == after
    keys.press("ArrowUp")
    assert page.step() == here
    keys.press("End")
    assert page.step() == len(steps) - 1
    keys.press("ArrowRight")
    assert page.step() == len(steps) - 1
    keys.press("Home")
    assert page.step() == 0
    keys.press("ArrowLeft")
    assert page.step() == 0
    page.page.click('#moves li[data-step="15"]')
    assert page.step() == 15 and page.page.evaluate("location.hash") == "#m=15"
    page.page.click("#next")
    page.page.click("#next")
    assert page.step() == 17
    page.page.click("#prev-hand")
    assert page.step() == max(d for d in deals if d < 17)
    page.page.click("#last")
    assert page.step() == len(steps) - 1
    page.page.click("#first")
    assert page.step() == 0
    # the fragment keeps the step: a link opens there
    page.go("#m=52")
    assert page.page.inner_text("#counter") == f"step 52 of {len(steps) - 1}"
    assert page.errors == [], page.errors
    page.close()


@pytest.mark.parametrize("log", ["paulista-special.jsonl", "mineiro-special.jsonl",
                                 "mineiro-seed1.jsonl"])
def test_a_seat_s_view_shows_no_card_its_observation_hides(browser: Any, tmp_path: Path,
                                                           log: str) -> None:
    path, steps = _page(tmp_path, (REPO / "replays" / log).read_bytes(), log)
    page = Page(browser, path)
    masked = [i for i, s in enumerate(steps) if s.get("tm")]
    ended = [i for i, s in enumerate(steps) if s.get("end")]
    shown = [i for i, s in enumerate(steps) if any(v[1] for v in s["ov"])]  # partners' cards
    chosen = sorted({0, len(steps) - 1, *range(1, len(steps), 9), *masked[::2], *ended[::2],
                     *shown})
    if log == "mineiro-special.jsonl":
        assert shown  # its mão de dez decisions show the partners' cards
    for seat in range(4):
        page.page.select_option("#eye", str(seat))
        for i in chosen:
            step = steps[i]
            page.go(f"#m={i}&seat={seat}")
            look = page.look()
            assert look["step"] == i
            assert look["faces"] <= visible(step, seat), (log, seat, i)
            assert look["fronts"] == _expected_fronts(step, 4, seat), (seat, i)
            own, partners = step["ov"][seat][0], step["ov"][seat][1]
            for other, cards in look["hands"].items():
                if (other == seat and own) or other in partners:  # partners': a decision (M5)
                    assert cards == step["hs"][other], (seat, i, other)
                else:  # another seat's hand, or its own in a blind hand (P6): face down
                    assert cards == [None] * len(step["hs"][other]), (seat, i, other)
            if step.get("tm") and not step["ov"][seat][4]:
                assert look["words"] == _words(step["tm"])
            elif step["k"] != "error":
                assert look["words"] == _words(step["tx"])
    assert page.errors == [], page.errors
    page.close()


def test_an_invalid_log_shows_the_error_at_its_line(browser: Any, tmp_path: Path) -> None:
    path, steps = _page(tmp_path, (REPO / "replays" / "invalid" / "illegal-move.jsonl")
                        .read_bytes(), "illegal-move")
    page = Page(browser, path)
    page.page.keyboard.press("End")
    assert page.step() == len(steps) - 1
    assert "illegal move [not_your_turn]" in page.page.inner_text("#now .what")
    assert "error" in (page.page.get_attribute("#now", "class") or "")
    assert page.page.inner_text("#now .line") == "log line 3"
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("variant", ["three-players", "one-on-one", "capixaba-jokers",
                                     "paulista-mao-de-11-decision", "mineiro-mao-de-dez-wins-game",
                                     "five-cards", "gauderio-trios"])
def test_other_tables_open_without_an_error(browser: Any, tmp_path: Path, variant: str) -> None:
    """Other tables (three seats, two, six; five cards a hand; jokers) open, step through
    to the end, and keep the layout's rules on a phone (_LAYOUT)."""
    path, steps = _page(tmp_path, record_random(variant, 2).encode(), variant)
    page = Page(browser, path, f"#m={len(steps) // 2}")
    seats = len(page.page.query_selector_all(".seat"))
    assert seats == len(steps[0]["hs"])
    for _ in range(len(steps)):
        page.page.keyboard.press("ArrowRight")
    assert page.step() == len(steps) - 1
    page.page.keyboard.press("Home")
    page.page.set_viewport_size({"width": 360, "height": 800})
    problems = page.page.evaluate(_LAYOUT)
    assert problems == [], "\n".join(problems[:10])
    assert page.errors == [], page.errors
    page.close()


def test_the_statistics_page_draws_its_charts(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "stats.html"
    path.write_text(simulate_page(run_simulation("paulista", games=8, seed=3,
                                                 bots=["heuristic", "random"])),
                    encoding="utf-8")
    page = Page(browser, path)
    assert len(page.page.query_selector_all("svg")) >= 4
    box = page.page.query_selector("svg rect").bounding_box()
    assert box is not None and box["width"] > 0
    assert page.errors == [] and page.requests == []
    page.close()


#: The layout's rules, checked in the page at every step from the first (it clicks "next"):
#: the element boxes (getBoundingClientRect), not pixels. Returns what breaks them, in words.
_LAYOUT = """() => {
  const problems = [];
  const W = document.documentElement.clientWidth;
  const box = e => e.getBoundingClientRect();
  const real = r => r.width > 0.5 && r.height > 0.5;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const say = e => (e.className || e.tagName) + (e.dataset.card ? " " + e.dataset.card : "")
    + (e.dataset.seat ? " seat " + e.dataset.seat : "") + " '"
    + e.textContent.trim().slice(0, 24) + "'";
  const all = sel => [...document.querySelectorAll(sel)];
  const apart = (els, why) => {
    for (let i = 0; i < els.length; i++) {
      for (let j = i + 1; j < els.length; j++) {
        const a = box(els[i]), b = box(els[j]);
        if (real(a) && real(b) && overlap(a, b)) {
          problems.push(why + ": " + say(els[i]) + " overlaps " + say(els[j]));
        }
      }
    }
  };
  const steps = document.querySelectorAll("#moves li").length - 1;
  for (let step = 0; step <= steps; step++) {
    const at = "step " + step + ": ";
    const before = problems.length;
    if (document.documentElement.scrollWidth > W) {
      problems.push("the page is wider than the window");
    }
    for (const e of all(".seat, .front, .middle, .card, .manilhas .mini, .team-score > *,"
                        + " #moves, .panel, .controls, #now, header > *")) {
      const r = box(e);
      if (real(r) && (r.left < -0.5 || r.right > W + 0.5)) {
        problems.push("outside the window: " + say(e));
      }
    }
    for (const card of all(".card")) {
      const parts = [...card.querySelectorAll(".rank, .suit, .called, .mark")]
        .filter(p => p.textContent.trim() && real(box(p)));
      apart(parts, "inside a card");
      for (const p of parts) {
        if (!inside(box(p), box(card))) { problems.push("out of its card: " + say(p)); }
      }
    }
    for (const hand of all(".hand")) { apart([...hand.querySelectorAll(".card")], "a hand"); }
    apart(all(".seat, .front, .middle"), "the table");
    const table = box(document.getElementById("table"));
    for (const e of all(".seat, .front, .middle")) {
      if (real(box(e)) && !inside(box(e), table)) { problems.push("off the table: " + say(e)); }
    }
    for (const e of all(".manilhas .mini, .team-score .points, .team-score .games,"
                        + " .badge, .card .called")) {
      if (e.getClientRects().length > 1) { problems.push("wraps: " + say(e)); }
    }
    for (const e of all(".panel, #moves, #now, .team-score .label, #moves li")) {
      if (e.scrollWidth > e.clientWidth + 1) { problems.push("cut off: " + say(e)); }
    }
    const moves = box(document.getElementById("moves"));
    if (moves.width < 200 || moves.height < 150) {
      problems.push("the move list is too small: " + moves.width + "x" + moves.height);
    }
    for (let k = before; k < problems.length; k++) { problems[k] = at + problems[k]; }
    if (problems.length > 20) { break; }
    document.getElementById("next").click();
  }
  return problems;
}"""

FAMILIES = {"paulista": "paulista-special.jsonl", "mineiro": "mineiro-special.jsonl",
            "gauderio": "gauderio-seed1.jsonl"}


@pytest.mark.parametrize("width", [360, 800, 1280])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_layout_has_no_overlap_and_no_overflow(browser: Any, tmp_path: Path, family: str,
                                                   width: int) -> None:
    """At a phone's width, a small window's and a desktop's, at every step of a log of each
    shipped family: no card's labels on each other or out of the card, no card on another,
    the seats, the cards in front of them and the middle apart and on the table, the manilha
    legend's entries and the score's numbers each on one line, nothing wider than the window
    and nothing cut off by its box (the move list whole)."""
    log = FAMILIES[family]
    path, _ = _page(tmp_path, (REPO / "replays" / log).read_bytes(), log)
    page = Page(browser, path, "#m=0")
    page.page.set_viewport_size({"width": width, "height": 800})
    problems = page.page.evaluate(_LAYOUT)
    assert problems == [], "\n".join(problems[:20])
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_portuguese_layout_has_no_overlap_and_no_overflow(
        browser: Any, tmp_path: Path, family: str, width: int) -> None:
    """Issue 43: the same in Brazilian Portuguese, whose words are longer."""
    from engine import i18n

    log = FAMILIES[family]
    with i18n.using("pt-BR"):
        path, _ = _page(tmp_path, (REPO / "replays" / log).read_bytes(), log)
    page = Page(browser, path, "#m=0")
    page.page.set_viewport_size({"width": width, "height": 800})
    assert page.page.evaluate("document.documentElement.lang") == "pt-BR"
    problems = page.page.evaluate(_LAYOUT)
    assert problems == [], "\n".join(problems[:20])
    assert page.errors == []
    page.close()


_FITS = """() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > W) { out.push("the page is wider than the window"); }
  for (const svg of document.querySelectorAll("svg")) {
    const r = svg.getBoundingClientRect(), s = svg.closest("section").getBoundingClientRect();
    if (r.right > s.right + 0.5 || r.left < s.left - 0.5 || r.right > W) {
      out.push("a chart out of its section: " + svg.getAttribute("aria-label"));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_statistics_pages_fit_the_window(browser: Any, tmp_path: Path, width: int) -> None:
    from engine.compare import compare_simulations
    from engine.viewer import compare_page

    pages = {"paulista": simulate_page(run_simulation("paulista", games=4, seed=3,
                                                      bots=["heuristic", "random"])),
             "gauderio": simulate_page(run_simulation("gauderio", games=4, seed=3,
                                                      bots=["heuristic", "random"])),
             "compare": compare_page(compare_simulations("paulista", "concede", games=4, seed=1,
                                                         bots=["random"]),
                                     "paulista", "concede")}
    for name, html in pages.items():
        path = tmp_path / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        page = Page(browser, path)
        page.page.set_viewport_size({"width": width, "height": 900})
        assert page.page.evaluate(_FITS) == [], (name, width)
        assert page.errors == []
        page.close()


def test_an_extra_card_shows_the_variant_s_name_for_it(browser: Any, tmp_path: Path) -> None:
    """capixaba-jokers names its jokers X1 and X2 "coringa" (card_names): every joker on the
    table says so, though it is no manilha; and the cards' labels stay apart at 360 px."""
    log = next(lg for seed in range(1, 30)
               if '"X' in (lg := record_random("capixaba-jokers", seed)))
    path, steps = _page(tmp_path, log.encode(), "capixaba")
    at = next(i for i, s in enumerate(steps) if any(c.startswith("X") for h in s["hs"]
                                                    for c in h))
    page = Page(browser, path, f"#m={at}")
    jokers = page.page.eval_on_selector_all(
        '.seat .card[data-card^="X"]', "cs => cs.map(c => [c.dataset.card, c.innerText])")
    assert jokers and all("coringa" in text for _, text in jokers), jokers
    page.page.set_viewport_size({"width": 360, "height": 800})
    problems = page.page.evaluate(_LAYOUT)
    assert not [p for p in problems if "card" in p], problems[:5]
    assert page.errors == []
    page.close()


_ACTS = """() => [...document.querySelectorAll(".seat.acts")].map(e => [Number(e.dataset.seat),
  e.querySelector(".badge.acts").innerText])"""


@pytest.mark.parametrize("log", ["gauderio-seed1.jsonl", "mineiro-special.jsonl",
                                 "paulista-special.jsonl"])
def test_who_must_act_is_marked(browser: Any, tmp_path: Path, log: str) -> None:
    """A pending raise's answerers, a special hand's deciders, a side bet's answerers and a
    flor's singer are outlined with what they must do; in a seat's view a singer only to
    himself (steps.py, PRIVATE_ACTORS)."""
    path, steps = _page(tmp_path, (REPO / "replays" / log).read_bytes(), log)
    page = Page(browser, path)
    words = {"answer": "to answer", "bet_answer": "to answer", "decide": "to decide",
             "sing": "to sing"}
    marked = set()
    for i, step in enumerate(steps):
        acting = step.get("ac") or []
        if not acting:
            continue
        page.go(f"#m={i}")
        assert page.page.evaluate(_ACTS) == [[s, words[step["ph"]]] for s in acting], i
        marked.add(step["ph"])
        if step["ph"] == "sing":
            for seat in range(4):
                page.go(f"#m={i}&seat={seat}")
                seen = [s for s, _ in page.page.evaluate(_ACTS)]
                assert seen == ([seat] if seat in acting else []), (i, seat)
    assert marked >= {"gauderio-seed1.jsonl": {"answer", "bet_answer", "sing"},
                      "mineiro-special.jsonl": {"answer", "decide"},
                      "paulista-special.jsonl": {"answer"}}[log], marked
    assert page.errors == []
    page.close()


def test_the_side_bets_panel_tells_the_calls_answers_points_and_shows(
        browser: Any, tmp_path: Path) -> None:
    """Gaudério: the panel says which side bet waits for an answer (and from whom), each bet's
    calls, answer, the points declared ("são boas" too), who won what, an annulled envido, a
    flor sung, and the cards the winners show at the end of the hand; a Paulista page has no
    side bets panel."""
    log = "gauderio-seed1.jsonl"
    path, steps = _page(tmp_path, (REPO / "replays" / log).read_bytes(), log)
    page = Page(browser, path)
    names = ["Ana", "Bia", "Caio", "Duda"]

    def bet(i: int, name: str) -> str:
        page.go(f"#m={i}")
        return _words(page.page.inner_text(f'#bets [data-bet="{name}"]'))

    waiting = next(i for i, s in enumerate(steps) if s["ph"] == "bet_answer")
    w = steps[waiting]
    caller = names[w["sb"][0][2]]
    assert bet(waiting, "envido") == f"envido {caller}: envido · waits for an answer"
    assert page.page.inner_text("#side-pending") == (
        f"{caller}'s envido waits for {' or '.join(names[s] for s in w['ac'])}")
    assert page.page.inner_text("#pending") == "none"  # no truco waits
    accepted = next(i for i, s in enumerate(steps) if s["sb"][0][3] == "accepted")
    text = bet(accepted, "envido")
    assert "accepted (Duda 21, Ana 29, Bia “são boas”)" in text
    assert text.endswith("team 0 (Ana, Caio) wins 2 points")
    assert page.page.inner_text("#side-pending") == "none"
    killed = next(i for i, s in enumerate(steps) if s["sb"][0][3] == "killed")
    assert bet(killed, "envido").endswith("annulled")
    assert bet(killed, "flor") == "flor sung by Ana: team 0 (Ana, Caio) wins 3 points"
    ended = next(i for i, s in enumerate(steps) if s.get("ss"))
    page.go(f"#m={ended}")
    shows = page.page.eval_on_selector_all("#bets .show", "rs => rs.map(r => [r.innerText, "
                                           "[...r.querySelectorAll('.card')].map(c => "
                                           "c.dataset.card)])")
    assert [cards for _, cards in shows] == [x[1] for x in steps[ended]["ss"]]
    assert all(_words(t).startswith(f"{names[x[0]]} shows") for (t, _), x in
               zip(shows, steps[ended]["ss"], strict=True))
    assert "with a raise" not in page.page.inner_text("#shown")
    page.go(f"#m={accepted}&seat=2")
    assert "your points: envido 25 · flor none" in page.page.inner_text("#bets")
    assert page.errors == []
    page.close()
    path, _ = _page(tmp_path, (REPO / "replays" / "paulista-seed1.jsonl").read_bytes(), "p")
    page = Page(browser, path)
    assert not page.page.is_visible("#bets-panel") and not page.page.is_visible("#side-pending")
    page.close()


def test_a_hostile_player_name_stays_text_everywhere_the_page_shows_it(
        browser: Any, tmp_path: Path) -> None:
    """Player names reach the seats, the score, the side bets panel, who must act and an
    error step: always as text (the page builds its elements with textContent)."""
    import json

    evil = ['<img src=x onerror="window.pwned=1">', "<b>Bia</b>", "&lt;Caio&gt;",
            "</script><script>window.pwned=2</script>"]
    lines = (REPO / "replays" / "gauderio-seed1.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["players"] = evil
    # a last line that fails, so that the error step names a player too
    log = "\n".join([json.dumps(header), *lines[1:15], '{"event": "play", "seat": 1, '
                     '"card": "Qc"}']) + "\n"
    path, steps = _page(tmp_path, log.encode(), "evil")
    page = Page(browser, path, "#m=0")
    for _ in range(len(steps)):
        assert page.page.evaluate("document.querySelectorAll('img, b, script:not([id])')"
                                  ".length") <= 1  # the page's own script only
        page.page.click("#next")
    assert page.step() == len(steps) - 1 and steps[-1]["k"] == "error"
    assert f"it is {evil[3]}'s turn" in page.page.inner_text("#now .what")
    names = page.page.eval_on_selector_all(".seat .name", "ns => ns.map(n => n.textContent)")
    assert names == evil
    assert page.page.evaluate("window.pwned") is None
    assert page.errors == [] and page.requests == []
    page.close()


def test_the_analysis_draws_the_evaluation_bar_and_marks_the_mistakes(
        browser: Any, tmp_path: Path) -> None:
    """``truco replay --html --analysis`` (issue 30): the bar shows the analysis's chance at
    the step, each marked move carries its glyph and the better move, one seat's eyes see only
    that seat's marks, and nothing errs."""
    from engine.analysis import analyse

    log = REPO / "replays" / "paulista-seed1.jsonl"
    report = analyse(log.read_bytes(), "paulista-seed1.jsonl", playouts=6)
    html, _ = replay_page(log.read_bytes(), "paulista-seed1.jsonl", analysis=report)
    path = tmp_path / "a.html"
    path.write_text(html, encoding="utf-8")
    marked = [d for d in report["decisions"] if d["mark"]]
    page = Page(browser, path)
    assert page.page.is_visible("#evalbar") and page.page.is_visible("#evalgraph")
    items = page.page.query_selector_all("#moves li[class*='mark-']")
    assert len(items) == len(marked) > 0
    first = marked[0]
    rules = load_variant("paulista")  # issue 43: the better move in the table's words
    better = f"better {move_words(first['best_move'], rules)}"
    assert better in items[0].inner_text() and first["best_move"] not in items[0].inner_text()
    assert len(page.page.query_selector_all("#evalgraph rect")) == len(marked)
    # the bar at the step of the first marked move: the played move's chance, for team 0
    steps = undelta(_payload(html)["steps"])
    at = next(i for i, s in enumerate(steps) if s.get("ln") == first["line"] and s["k"] == "move")
    page.go(f"#m={at}")
    win = first["moves"][first["legal"].index(first["played"])]["win"]
    share = win if first["team"] == 0 else 1 - win
    width = page.page.evaluate("document.getElementById('evalfill').style.width")
    assert abs(float(width.rstrip("%")) - 100 * share) < 0.06
    assert first["mark"] in page.page.inner_text("#now")
    seat = first["seat"]
    page.go(f"#m={at}&seat={(seat + 1) % 4}")
    other = (seat + 1) % 4  # only that seat's marks, the first one's not among them
    items = page.page.query_selector_all("#moves li[class*='mark-']")
    assert len(items) == len([d for d in marked if d["seat"] == other])
    assert page.errors == [] and page.requests == []
    page.close()


def test_the_evaluation_bar_of_three_teams_is_team_0_s_own(browser: Any, tmp_path: Path) -> None:
    """With three teams the bar shows team 0's chance only, from its own decisions."""
    from engine.analysis import analyse

    log = record_random("three-players", 3).encode()
    report = analyse(log, "three.jsonl", playouts=2)
    html, _ = replay_page(log, "three.jsonl", analysis=report)
    path = tmp_path / "three.html"
    path.write_text(html, encoding="utf-8")
    page = Page(browser, path)
    mine = next(d for d in report["decisions"] if d["team"] == 0)
    steps = undelta(_payload(html)["steps"])
    at = next(i for i, s in enumerate(steps) if s.get("ln") == mine["line"] and s["k"] == "move")
    page.go(f"#m={at}")
    win = mine["moves"][mine["legal"].index(mine["played"])]["win"]
    width = page.page.evaluate("document.getElementById('evalfill').style.width")
    assert abs(float(width.rstrip("%")) - 100 * win) < 0.06
    assert page.page.inner_text("#evaltext").count("%") == 1
    assert page.errors == [] and page.requests == []
    page.close()


@pytest.mark.parametrize("log", ["paulista-seed1.jsonl", "gauderio-seed1.jsonl"])
def test_every_word_the_viewer_draws_goes_through_the_catalog(browser: Any, tmp_path: Path,
                                                               log: str) -> None:
    """Issue 43: the viewer in the test locale ``qps`` (every catalog message marked), with
    the analysis's marks, at every step and through one seat's eyes: no word a reader sees
    escaped the catalog (cards, numbers, the players' names, the table's words aside)."""
    import re

    from test_play_pseudo import _table_words, unmarked

    from engine import i18n
    from engine.analysis import analyse
    from tests.test_serve_language import OWN_WORDS

    data = (REPO / "replays" / log).read_bytes()
    report = analyse(data, log, playouts=4)
    with i18n.using(i18n.PSEUDO):
        html, _ = replay_page(data, log, analysis=report)
    info = _payload(html)["info"]
    words = sorted({*OWN_WORDS, *_table_words(info["variant"]), *info["names"], log, "M"},
                   key=len, reverse=True)
    path = tmp_path / "qps.html"
    path.write_text(html, encoding="utf-8")
    page = Page(browser, path)
    steps = len(undelta(_payload(html)["steps"]))
    for i in range(0, steps, max(1, steps // 25)):
        for eye in ("", "&seat=1"):
            page.go(f"#m={i}{eye}")
            text = re.sub(r"(?m)^(?:10|[2-9JQKA★]|X\d)$", "", page.page.inner_text("body"))
            bad = unmarked(text, words)
            assert bad == [], (i, eye, bad[:10])
    assert page.errors == [] and page.requests == []
    page.close()


@pytest.mark.parametrize(("variant", "word"), [
    ("one-on-one", "jogador"), ("paulista", "dupla"), ("gauderio-trios", "equipe")])
def test_the_portuguese_page_names_a_team_by_its_seats(browser: Any, tmp_path: Path,
                                                        variant: str, word: str) -> None:
    """Issue 43: jogador where a team is one seat, dupla where two, equipe where three."""
    from engine import i18n

    with i18n.using("pt-BR"):
        path, _ = _page(tmp_path, record_random(variant, 2).encode(), variant)
    page = Page(browser, path, "#m=0")
    heads = page.page.eval_on_selector_all(".seat .team", "els => els.map(e => e.textContent)")
    assert heads and all(h.startswith(word + " ") for h in heads), heads
    assert page.errors == []
    page.close()
