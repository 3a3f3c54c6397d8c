"""The championship's pages in Chromium (issue 46): four browser contexts, the organiser and
three teams' players (one on a phone-sized screen, reading Portuguese), through a small Swiss.
The organiser's page (its key in the fragment) sees the teams register through the
registration page, closes the registration and starts the round by clicking; each team's page
shows its seat links; the organiser records the tables as walkovers through the page's form; the
standings page shows the results. Names are shown as text, never as HTML.

Marked ``browser`` as tests/test_serve_browser.py (Debian's Chromium through playwright)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests import test_serve_browser
from tests.serve_util import Running

pytestmark = pytest.mark.browser
#: The browser tests' Chromium and server (tests/test_serve_browser.py).
browser, server = test_serve_browser.browser, test_serve_browser.server
API = "/api/championships"
WAIT = 60_000  # ms: a guard far above what a page needs, on a busy machine
HOSTILE = "<img src=x onerror=alert(1)>"


class Person:
    """A browser context of its own, console and page errors noted."""

    def __init__(self, browser: Any, server: Running, phone: bool = False) -> None:
        size = {"width": 375, "height": 812} if phone else {"width": 1280, "height": 900}
        self.context = browser.new_context(viewport=size)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.server = server

    def open(self, path: str) -> None:
        self.page.goto(self.server.base + path)


def _register(person: Person, link: str, name: str, players: list[str]) -> str:
    """A team registered through the registration page; its team page's link."""
    person.open(link)
    person.page.fill("#name", name)
    for k, player in enumerate(players):
        person.page.fill(f"#player-{k}", player)
    person.page.click("#register-button")
    person.page.wait_for_selector("#team-link")
    assert person.page.text_content("#registered-name") == name
    href = person.page.get_attribute("#team-link", "href")
    assert href is not None and "#key=" in href and href.startswith("/c/")
    return href


def test_a_championship_through_its_pages(browser: Any, server: Running) -> None:
    status, made = server.post(API, {"variant": "paulista", "format": "swiss", "rounds": 1,
                                     "title": "Copa <b>do Bairro</b>"})
    assert status == 201, made
    cid = made["championship"]
    assert server.get(f"/c/{cid}/nothing")[0] == 404 and server.get("/c/none/team")[0] == 404
    organiser = Person(browser, server)
    organiser.open(made["organise"])
    assert organiser.page.title() == "Copa <b>do Bairro</b>"  # the title as text
    organiser.page.wait_for_function("document.getElementById('state').textContent === "
                                     "'registration open'")
    teams = [Person(browser, server), Person(browser, server),
             Person(browser, server, phone=True)]
    names = ["Os Zaps", HOSTILE, "Espadilha"]
    pages = [_register(teams[0], made["register"], names[0], ["Ana", "Bia"]),
             _register(teams[1], made["register"], names[1], ["Caio", "Duda"])]
    phone = teams[2]  # reads Portuguese
    pages.append(_register(phone, made["register"].replace("#", "?lang=pt-BR#"), names[2],
                           ["Edu", "Fê"]))
    assert "Nome do time" in phone.page.text_content("#register")
    assert "?lang=pt-BR#key=" in pages[2]
    # a team registering twice is told why, from the API's message
    phone.page.reload()  # the same link again: a new form
    phone.page.fill("#name", "os zaps")
    phone.page.select_option("#bot", "easy")
    phone.page.click("#register-button")
    phone.page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "registered already" in phone.page.text_content("#error")
    status, _bot = server.post(f"{API}/{cid}/teams", {"key": made["registration_key"],
                                                     "name": "Robô", "bot": "easy"})
    assert status == 201
    for person, page in zip(teams, pages, strict=True):
        person.open(page)
        person.page.wait_for_selector("#tables li")
    organiser.page.wait_for_function("document.querySelectorAll('#teams li').length === 4")
    assert HOSTILE in organiser.page.text_content("#teams")
    assert organiser.page.query_selector("#teams img") is None  # text, never HTML

    organiser.page.click("#close")
    organiser.page.wait_for_function("document.getElementById('state').textContent === "
                                     "'registration closed'")
    organiser.page.click("#round")
    organiser.page.wait_for_function(
        "document.querySelectorAll('#outcome-table option').length === 2")
    for person in teams:
        person.page.wait_for_selector("#tables a.seat-link")
        links = person.page.eval_on_selector_all("#tables a.seat-link",
                                                 "as => as.map(a => a.getAttribute('href'))")
        assert len(links) == 2 and all(link.startswith("/t/") and "#k=" in link
                                       for link in links), links
    assert "contra" in phone.page.text_content("#tables")  # "Rodada 1, jogo 1, contra ..."

    for left in (1, 0):  # each table recorded as a walkover of its first team
        organiser.page.select_option("#outcome-result", "walkover")
        team = organiser.page.eval_on_selector("#outcome-team", "s => s.options[0].value")
        organiser.page.select_option("#outcome-team", team)
        organiser.page.click("#record")
        organiser.page.wait_for_function(
            f"document.querySelectorAll('#outcome-table option').length === {left}")
    organiser.page.wait_for_function("document.getElementById('state').textContent === 'over'")
    assert organiser.page.text_content("#round-tables").count("wins by walkover") == 2
    organiser.page.click("#round")  # no round after the last: the API's message shown
    organiser.page.wait_for_function("document.getElementById('error').textContent !== ''")

    organiser.open(made["standings"])
    standings = organiser.page.text_content("main")
    assert standings.count("wins by walkover") == 2 and HOSTILE in standings
    for person in [organiser, *teams]:  # the refusals provoked above are the only ones
        unexpected = [e for e in person.errors if "409 (Conflict)" not in e]
        assert unexpected == [], unexpected
        person.context.close()


def test_every_word_of_the_pages_goes_through_the_catalog(browser: Any, server: Running
                                                          ) -> None:
    """The three pages in the test locale ``qps`` (every catalog message marked ⟦...⟧), a
    round in play, its table late by the time rule (made 0 minutes after the start): no word
    escaped the catalog (names, table ids and links aside), the late marker included."""
    from test_play_pseudo import unmarked

    from tests.test_serve_language import OWN_WORDS

    status, made = server.post(API, {"variant": "paulista", "format": "swiss", "rounds": 1,
                                     "title": "Copa", "late_start": {"after_minutes": 0,
                                                                     "start_score": 11}})
    cid, teams = made["championship"], {}
    for name, players in (("Zaps", ["Ana", "Bia"]), ("Copas", ["Caio", "Duda"])):
        status, teams[name] = server.post(f"{API}/{cid}/teams", {
            "key": made["registration_key"], "name": name, "players": players})
        assert status == 201
    for action in ("close", "round"):
        assert server.post(f"{API}/{cid}/{action}", {"key": made["organiser_key"]})[0] == 200
    playing = server.get(f"{API}/{cid}")[1].decode()
    tables = re.findall(r'"table":\s*"([^"]+)"', playing)
    words = sorted({*OWN_WORDS, "Copa", "Zaps", "Copas", "Ana", "Bia", "Caio", "Duda",
                    *tables}, key=len, reverse=True)
    person = Person(browser, server, phone=True)
    for path, ready in ((made["register"], "#bot option"),
                        (f"/c/{cid}/team#key={teams['Zaps']['team_key']}", "a.seat-link"),
                        (made["organise"], "#outcome-table option")):
        person.open(path.replace("#", "?lang=qps#"))
        person.page.wait_for_selector(ready, state="attached")
        text = re.sub(r"http://\S+", " ", person.page.inner_text("body"))
        assert unmarked(text, words) == [], path
        if path == made["organise"]:
            assert "(⟦late: from 11 × 11⟧)" in text, text
        assert person.page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert person.errors == []
