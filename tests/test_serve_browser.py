"""``truco serve`` in a real browser (issue 29): headless Chromium (Debian's, through
playwright's ``executable_path``, as tests/test_viewer_browser.py) on the page a real server
serves. Two browser contexts and two bots play a whole Paulista match through the page (one of
them on a phone-sized screen); a Gaudério match where the page calls envido and sings flor; a
reconnect mid-hand; a spectator who sees no hidden card. Each log verifies.

Marked ``browser``: skipped without Chromium or playwright, naming what is missing, unless
``TRUCO_BROWSER_REQUIRED`` is set (on CI), which makes that a failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.replay.verify import verify_file
from engine.serve.table import Table
from tests import test_viewer_browser
from tests.serve_util import Running, running

pytestmark = pytest.mark.browser
#: The viewer tests' Chromium (skipped, or failed under TRUCO_BROWSER_REQUIRED, without it).
browser = test_viewer_browser.browser

MOVES = "Number(document.body.dataset.moves)"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running(tmp_path) as r:
        yield r


class Seat:
    """A page at one seat (its own browser context), console and page errors noted."""

    def __init__(self, browser: Any, server: Running, link: str, phone: bool = False) -> None:
        size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
        self.context = browser.new_context(viewport=size)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.goto(server.base + link)
        self.page.wait_for_function(f"{MOVES} >= 0")

    def moves(self) -> int:
        return int(self.page.evaluate(MOVES))

    def mine(self) -> bool:
        return bool(self.page.evaluate("document.body.dataset.mine === '1'"))

    def over(self) -> bool:
        return bool(self.page.evaluate("document.body.dataset.over === '1'"))

    def cover(self) -> str | None:
        """Play a card face down by Shift+click where covering one is legal now; the move
        made, or ``None``."""
        button = self.page.query_selector("#menu button[data-kind='play'][data-move$=' covered']")
        if button is None:
            return None
        move = str(button.get_attribute("data-move"))
        before = self.moves()
        self.page.click(f".seat.me .card[data-card='{move.split()[2]}']", modifiers=["Shift"])
        self.page.wait_for_function(f"{MOVES} > {before}")
        return move

    def play(self, prefer: tuple[str, ...] = ()) -> str:
        """Make a move: the first menu entry of a preferred kind, else a card of the hand by
        a click (face up), else the first entry by its key; the move made."""
        before = self.moves()
        for kind in prefer:
            button = self.page.query_selector(f"#menu button[data-kind='{kind}']")
            if button is not None:
                move = str(button.get_attribute("data-move"))
                button.click()
                break
        else:
            card = self.page.query_selector(".seat.me .card.playable")
            if card is not None:
                move = str(card.get_attribute("data-move"))
                card.click()
            else:
                button = self.page.query_selector("#menu button")
                assert button is not None, "my move, but no menu"
                move = str(button.get_attribute("data-move"))
                self.page.keyboard.press(str(button.get_attribute("data-key")))
        self.page.wait_for_function(f"{MOVES} > {before}")
        return move


def _play(seats: list[Seat], until: Any, prefer: tuple[str, ...] = (),
          limit: int = 3000) -> list[str]:
    """The pages play (whoever's move it is) until ``until()``; the moves they made."""
    made: list[str] = []
    for _ in range(limit):
        if until():
            return made
        mover = next((s for s in seats if s.mine()), None)
        if mover is None:
            seats[0].page.wait_for_timeout(20)  # a bot's move or a message on its way
            continue
        made.append(mover.play(prefer))
    raise AssertionError("the pages did not finish")


def _table_of(server: Running, table_id: str) -> Table:
    tables: dict[str, Table] = server.server.config.app.state.server.tables
    return tables[table_id]


def _verified(server: Running, table_id: str, complete: bool = False) -> bool:
    """Whether the table's log on disk verifies (and, with ``complete``, is whole)."""
    root = Path(server.server.config.app.state.server.store.root)
    result = verify_file(root / table_id / "game.jsonl")
    return result.problems == [] and (not complete or not result.incomplete)


def test_two_friends_and_two_bots_play_a_whole_paulista_match(browser: Any,
                                                               server: Running) -> None:
    table = server.table("paulista", ["human", "human", "medium", "easy"], seed=3)
    a = Seat(browser, server, table["seats"][0]["link"])
    b = Seat(browser, server, table["seats"][1]["link"], phone=True)
    made = _play([a, b], a.over)
    assert len(made) > 20
    assert b.over()
    width = b.page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1] + 1, f"the phone's page is wider than its screen: {width}"
    log = server.base + a.page.get_attribute("#log-link", "href")
    assert log.endswith("/log")
    assert _verified(server, table["table"], complete=True)
    assert a.errors == [] and b.errors == []


def test_a_gauderio_match_with_envido_and_flor_from_the_page(browser: Any,
                                                             server: Running) -> None:
    table = server.table("gauderio", ["human", "human", "medium", "medium"], seed=7)
    a = Seat(browser, server, table["seats"][0]["link"])
    b = Seat(browser, server, table["seats"][1]["link"])
    made: list[str] = []

    def both() -> bool:
        kinds = {m.split()[0] for m in made}
        return a.over() or {"flor", "envido"} <= kinds

    for _ in range(3000):  # the pages sing flor and call envido whenever offered
        if both():
            break
        mover = next((s for s in (a, b) if s.mine()), None)
        if mover is None:
            a.page.wait_for_timeout(20)
            continue
        made.append(mover.play(("flor", "envido", "quero")))
    assert {"flor", "envido"} <= {m.split()[0] for m in made}, made
    assert _verified(server, table["table"])
    assert a.errors == [] and b.errors == []


def test_a_reconnect_mid_hand_gets_the_seat_and_its_cards(browser: Any,
                                                          server: Running) -> None:
    table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=4)
    a = Seat(browser, server, table["seats"][0]["link"])
    assert "fixed seed" in a.page.inner_text("#fair")  # a test server's seeded table says so
    _play([a], lambda: len(a.page.query_selector_all(".seat.me .hand .card")) < 3)
    hand = a.page.eval_on_selector_all(".seat.me .hand .card", "cs => cs.map(c => c.dataset.card)")
    moves = a.moves()
    a.page.reload()
    a.page.wait_for_function(f"{MOVES} >= 0")
    assert a.moves() == moves
    again = a.page.eval_on_selector_all(".seat.me .hand .card",
                                        "cs => cs.map(c => c.dataset.card)")
    assert again == hand == _table_of(server, table["table"]).match.hands[0]
    assert _verified(server, table["table"])
    assert a.errors == []


def test_a_spectator_sees_no_hidden_card(browser: Any, server: Running) -> None:
    table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=9)
    a = Seat(browser, server, table["seats"][0]["link"])
    watcher = Seat(browser, server, table["spectator"])
    seen: set[str] = set()
    covered_by_me: list[str] = []
    for _ in range(40):
        _play([a], lambda: a.mine())
        move = a.cover()
        if move is None:
            a.play()
        else:
            covered_by_me.append(move)
        watcher.page.wait_for_function(f"{MOVES} >= {a.moves()}")
        faces = watcher.page.eval_on_selector_all(".card.face", "cs => cs.map(c => c.dataset.card)")
        m = _table_of(server, table["table"]).match
        held = {c for hand in m.hands for c in hand}
        covered = {c for _, _, c, cov in m.played if cov} | {c.split()[2] for c in covered_by_me}
        assert not (set(faces) & (held | covered)), faces
        seen |= set(faces)
        if a.over() or len(covered_by_me) >= 2:
            break
    assert seen, "the spectator saw no card at all: this would test nothing"
    assert covered_by_me, "no card was covered: the spectator's view of one is untested"
    assert _verified(server, table["table"])
    assert watcher.page.query_selector("#menu button") is None
    assert watcher.errors == []


def test_the_lobby_shows_a_house_file_s_problems_and_creates_its_table(
        browser: Any, server: Running) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-3")
    bad = b"extends: paulista\nscoring:\n  target: 3\n"
    page.set_input_files("#house", files=[{"name": "casa.yaml", "mimeType": "text/yaml",
                                           "buffer": bad}])
    page.wait_for_function("document.getElementById('problems').textContent !== ''")
    assert page.inner_text("#problems").startswith("casa.yaml:2:1: scoring: unknown key")
    good = b"extends: paulista\ntitle: Truco da casa\n"
    page.set_input_files("#house", files=[{"name": "casa.yaml", "mimeType": "text/yaml",
                                           "buffer": good}])
    page.wait_for_function("document.getElementById('problems').textContent === '' && "
                           "document.getElementById('seat-3') !== null")
    for seat in range(4):  # four friends
        page.select_option(f"#seat-{seat}", "human")
    page.click("#create")
    page.wait_for_selector("#link-spectator")
    assert "Truco da casa" in page.inner_text("#result-title")
    links = [page.get_attribute(f"#link-{s}", "href") for s in range(4)]
    assert len(set(links)) == 4
    seat = Seat(browser, server, str(links[2]))
    assert seat.page.inner_text("#who") == "you are seat 2"
    assert seat.page.inner_text("#title") == "Truco da casa"
    assert errors == [] and seat.errors == []


@pytest.mark.parametrize("width", [360, 1280])
def test_the_lobby_fits_names_the_players_and_the_table_lists_manilhas_and_hands(
        browser: Any, server: Running, width: int) -> None:
    """Issue 40 (12, and names): the lobby's form is whole at 360 px (nothing wider than the
    screen, "Create the table" on it); a name typed for a seat is the table's; the table
    lists the manilhas and separates the hands in its moves panel."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-3")
    wide = page.evaluate("""() => [...document.querySelectorAll('form.lobby *')]
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map(e => e.id || e.tagName)""")
    assert wide == [] and page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth")
    # A live table deals from fresh entropy (its seed commitment), so its first hand cannot be
    # chosen: the seat folds every raise and plays cards, which cannot end the match in its
    # first hand; the bots may still raise to 12 and accept among themselves, so a match over
    # in one hand is played again at a new table (three in all: never seen twice running).
    for attempt in range(3):
        if attempt:  # the match ended in its first hand: a new table
            page.goto(server.base + "/")
            page.wait_for_selector("#seat-3")
        page.select_option("#seat-0", "human")
        for other in (1, 2, 3):
            page.select_option(f"#seat-{other}", "easy")
        page.fill("#name-0", "Ana <i>")
        page.click("#create")
        page.wait_for_selector("#link-0")
        seat = Seat(browser, server, str(page.get_attribute("#link-0", "href")),
                    phone=width < 600)
        assert "Ana <i> (you)" in seat.page.inner_text("#score")
        assert seat.page.query_selector_all("#manilhas .card")  # Paulista: four manilhas
        while True:  # until a new hand
            seat.page.wait_for_function(
                "document.querySelector('#menu button, #moves .hand-sep') !== null"
                " || document.body.dataset.over === '1'")
            if seat.page.query_selector("#moves .hand-sep") is not None or seat.over():
                break
            before = seat.moves()
            button = (seat.page.query_selector("#menu button[data-kind='fold']")
                      or seat.page.query_selector("#menu button[data-kind='play']")
                      or seat.page.query_selector("#menu button"))
            assert button is not None
            button.click()
            seat.page.wait_for_function(
                f"{MOVES} > {before} || document.body.dataset.over === '1'")
        if seat.page.query_selector("#moves .hand-sep") is not None:
            break
    assert seat.page.query_selector("#moves .hand-sep") is not None
    assert errors == [] and seat.errors == []
    context.close()


def test_an_upload_table_s_page_links_its_variant_file(browser: Any, server: Running) -> None:
    """Issue 40 (9): the page of a finished upload table links the house variant its log
    names, to keep beside the log."""
    status, table = server.post("/api/tables", {"upload": {
        "name": "casa.yaml", "text": "extends: paulista\ntitle: Truco da casa\n"},
        "seats": ["easy"] * 4})
    assert status == 201
    watcher = Seat(browser, server, table["spectator"])
    watcher.page.wait_for_selector("#variant-link", state="visible")
    href = watcher.page.get_attribute("#variant-link", "href")
    assert href == f"/t/{table['table']}/variant.yaml"
    assert server.get(href)[1].decode().startswith("extends: paulista")
    assert watcher.errors == []


def test_a_person_names_their_seat_on_the_page(browser: Any, server: Running) -> None:
    """Also (names): the page of a seat the lobby left unnamed asks for a name; once given,
    every page shows it and the form is gone."""
    table = server.table("paulista", ["human", "easy", "easy", "easy"])
    seat = Seat(browser, server, table["seats"][0]["link"], phone=True)
    seat.page.wait_for_selector("#name-form", state="visible")
    seat.page.fill("#name-input", "Zé <b>")
    seat.page.click("#name-set")
    seat.page.wait_for_selector("#name-form", state="hidden")
    assert "Zé <b> (you)" in seat.page.inner_text("#score")
    watcher = Seat(browser, server, table["spectator"])
    assert "Zé <b>" in watcher.page.inner_text("#score")
    assert watcher.page.is_hidden("#name-form")
    assert seat.errors == [] and watcher.errors == []


def test_the_page_gives_entropy_and_shows_the_deals_verified_at_the_end(
        browser: Any, server: Running) -> None:
    status, table = server.post("/api/tables", {"variant": "paulista",  # no seed: a secret one
                                                "seats": ["human", "easy", "easy", "easy"]})
    assert status == 201, table
    a = Seat(browser, server, table["seats"][0]["link"])
    fair = a.page.inner_text("#fair")
    assert "committed to its secret seed before the first card" in fair, fair
    _play([a], a.over, prefer=("raise", "accept"))
    a.page.wait_for_function("document.body.dataset.fair !== undefined")
    assert a.page.evaluate("document.body.dataset.fair") == "verified"
    fair = a.page.inner_text("#fair")
    assert "Deals verified" in fair and "Your entropy was mixed in" in fair, fair
    assert f"truco verify truco-{table['table']}.jsonl" in fair
    sealed = _table_of(server, table["table"]).seal
    assert sealed is not None and len(sealed.entropy[0]) == 64  # the page's 32 random bytes
    assert _verified(server, table["table"], complete=True)
    assert a.errors == []


def test_every_word_of_the_live_pages_goes_through_the_catalog(browser: Any,
                                                              server: Running) -> None:
    """Issue 43: the lobby and a table played for a few hands in the test locale ``qps``
    (every catalog message marked ⟦...⟧): no word a player reads, drawn by the page's script
    or the server's messages, escaped the catalog (cards, numbers, names given and the
    table's own words aside)."""
    from test_play_pseudo import _table_words, unmarked

    from tests.test_serve_language import OWN_WORDS

    words = sorted({*OWN_WORDS, *_table_words("paulista"), "Bot", "M"}, key=len, reverse=True)
    page = browser.new_page()
    page.goto(server.base + "/?lang=qps")
    page.wait_for_selector("#seat-3")
    assert unmarked(page.inner_text("body"), words) == []
    table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=5)
    seat = Seat(browser, server, table["seats"][0]["link"].replace("#", "?lang=qps#"))
    seen = set()
    for _turn in range(12):
        _play([seat], lambda: seat.mine() or seat.over())
        text = re.sub(r"(?m)^(?:10|[2-9JQKA★])$", "", seat.page.inner_text("body"))  # a rank
        seen.add(text)
        bad = unmarked(text, words)
        assert bad == [], bad
        if seat.over():
            break
        seat.play(("raise", "accept"))
    assert len(seen) > 5 and seat.errors == []


@pytest.mark.parametrize("width", [360, 1280])
def test_the_table_in_portuguese_fits_the_screen(browser: Any, server: Running,
                                                 width: int) -> None:
    """Issue 43: the table in Brazilian Portuguese (the browser's language), its longer
    words no wider than a phone's screen, the switch back to English kept by a cookie."""
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="pt-BR")
    table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=6)
    page = context.new_page()
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_function(f"{MOVES} >= 0")
    assert page.inner_text("#who") == "você é o lugar 0"
    assert "placar" in page.inner_text("#board").lower() and "jogar" in page.inner_text("#menu")
    for _turn in range(6):
        before = int(page.evaluate(MOVES))
        page.click("#menu button")
        page.wait_for_function(f"{MOVES} > {before} || document.body.dataset.over === '1'")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("nav.lang a[data-lang=en]")
    page.wait_for_function(f"document.documentElement.lang === 'en' && {MOVES} >= 0")
    assert page.inner_text("#who") == "you are seat 0"
    page.goto(server.base + "/")
    assert page.evaluate("document.documentElement.lang") == "en"  # the cookie's choice
    context.close()
