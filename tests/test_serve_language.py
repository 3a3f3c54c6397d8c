"""``truco serve`` in the player's language (issue 43): a page's language by its switch
(``?lang=``, kept in a cookie), else ``Accept-Language``, else English; the catalog its script
reads rendered into it; each connection's words (menus, moves, refusals) in its page's
language, two languages at one table at once; and every word of a page in the test locale
``qps`` marked, so none escaped the catalog."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from helpers import doctests
from test_play_pseudo import unmarked
from websockets.sync.client import connect

import engine.serve.language
from engine.serve.language import accept_language
from tests.serve_util import Client, Running, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running(tmp_path_factory.mktemp("serve-lang")) as r:
        yield r


def _get(server: Running, path: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """The page's text and the cookie it sets (``""``: none)."""
    req = urllib.request.Request(server.base + path, headers=headers or {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read().decode(), r.headers.get("Set-Cookie") or ""


def _lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found, page[:200]
    return found.group(1)


def test_the_module_examples_run() -> None:
    result = doctests(engine.serve.language)
    assert result.attempted >= 1 and result.failed == 0


@pytest.mark.parametrize(("header", "expected"), [
    ("pt-BR,pt;q=0.9,en;q=0.8", "pt-BR"), ("en-US,en;q=0.9,pt;q=0.5", "en"),
    ("fr, pt;q=0.3", "pt-BR"), ("de", None), ("pt;q=0, en;q=0.1", "en"), ("qps", None),
    ("en;q=abc, pt-PT", "pt-BR"), ("", None)])
def test_accept_language_picks_the_preferred_language_offered(header: str,
                                                             expected: str | None) -> None:
    assert accept_language(header) == expected


def test_the_lobby_speaks_the_browser_s_language_and_its_switch_is_kept(server: Running) -> None:
    page, cookie = _get(server, "/")
    assert _lang(page) == "en" and "Create the table" in page and not cookie
    assert 'href="?lang=pt-BR"' in page  # the switch to the other language
    page, _ = _get(server, "/", {"Accept-Language": "pt-BR,pt;q=0.9"})
    assert _lang(page) == "pt-BR" and ">Criar a mesa<" in page and ">Create the table<" not in page
    assert '"Seat {seat}":"Lugar {seat}"' in page  # the catalog of the messages its script uses
    assert '"Player {seat}"' not in page  # (not the table's)
    assert "robô: médio" in page  # the seats' choices, in the lobby's data
    page, cookie = _get(server, "/?lang=en", {"Accept-Language": "pt-BR"})
    assert _lang(page) == "en" and cookie.startswith("lang=en")
    page, _ = _get(server, "/", {"Accept-Language": "pt-BR", "Cookie": "lang=en"})
    assert _lang(page) == "en"  # the switch's choice outranks the browser's
    page, _ = _get(server, "/?lang=xx", {"Accept-Language": "pt-BR"})
    assert _lang(page) == "pt-BR"  # a language not offered asks for nothing


def test_a_table_that_does_not_exist_is_told_in_the_page_s_language(server: Running) -> None:
    req = urllib.request.Request(server.base + "/t/nothere", headers={"Accept-Language": "pt"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(req, timeout=30)
    assert caught.value.code == 404 and "essa mesa não existe" in caught.value.read().decode()


def _ws(server: Running, table: str, lang: str | None) -> object:
    query = f"?lang={lang}" if lang else ""
    return connect(f"ws://127.0.0.1:{server.port}/t/{table}/ws{query}").__enter__()


def test_two_languages_at_one_table_each_get_their_own_words(server: Running) -> None:
    table = server.table("one-on-one", ["human", "human"], seed=3)
    links = [s["link"] for s in table["seats"]]
    page, _ = _get(server, links[0].split("#")[0], {"Accept-Language": "pt-BR"})
    assert _lang(page) == "pt-BR" and ">Esta mão<" in page and ">This hand<" not in page
    tokens = [link.split("#k=")[1] for link in links]
    pt = Client(_ws(server, table["table"], "pt-BR"), tokens[0])  # type: ignore[arg-type]
    en = Client(_ws(server, table["table"], None), tokens[1])  # type: ignore[arg-type]
    words = {id(pt): "jogar ", id(en): "play "}
    mover = pt if pt.fresh()["legal"] else en
    for _turn in range(2):  # each seat's menu in its language, then the other's
        legal = mover.fresh()["legal"]
        assert any(m["label"].startswith(words[id(mover)]) for m in legal), legal
        play = next(m for m in legal if m["kind"] == "play")  # the move: the log's words
        mover.sent(json.dumps({"type": "move", "move": play["move"]}))
        mover = en if mover is pt else pt
    waiting = en if mover is pt else pt
    seat = 0 if waiting is pt else 1
    card = waiting.fresh()["obs"]["hand"][0]
    waiting.sent(json.dumps({"type": "move", "move": f"play {seat} {card}"}))
    error = waiting.error()
    assert error["code"] == "not_your_turn"  # the code: the same in every language
    said = "não é a sua vez" if waiting is pt else "it is not your turn"
    assert said in error["message"], error
    pt.close()
    en.close()


class _Text(HTMLParser):
    """The words of a page a person reads: its text outside scripts and styles, and the
    attributes a browser shows or reads aloud."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        self.words += [v for k, v in attrs if k in ("title", "placeholder", "aria-label")
                       and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.words.append(data.strip())


#: Words a page shows that are no message: the command's name, the table's words, the
#: languages named in themselves (the switch).
OWN_WORDS = ["truco serve", "manilhas", "English", "Português", "variant.yaml"]


def unmarked_page(page: str, words: list[str] | None = None) -> list[str]:
    """The lines of the page's text not through the catalog (in ``qps``), the ``words``
    of the game's data (by default :data:`OWN_WORDS`) aside."""
    parser = _Text()
    parser.feed(page)
    return unmarked("\n".join(parser.words), OWN_WORDS if words is None else words)


def test_every_word_of_the_pages_goes_through_the_catalog(server: Running) -> None:
    table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=3)
    for path in ("/", "/t/" + table["table"]):
        page, _ = _get(server, path + "?lang=qps")
        assert _lang(page) == "qps" and "⟦" in page
        assert unmarked_page(page) == [], path
        catalog = json.loads(re.search(r'<script id="i18n" type="application/json">(.*?)'
                                       r"</script>", page, re.DOTALL).group(1))  # type: ignore[union-attr]
        said = "Your move." if path != "/" else "Spectators"
        assert catalog["messages"][said] == f"⟦{said}⟧"  # what its script says, marked
    # the check sees a word left out of a template's {{ }}, in the text or an attribute
    assert unmarked_page("<p>⟦a table⟧</p><p title='seed'>x</p>") == ["'seed' -> 'seed'",
                                                                     "'x' -> 'x'"]



def test_a_finished_table_s_replay_speaks_the_page_s_language(server: Running) -> None:
    table = server.table("paulista", ["easy", "easy", "easy", "easy"], seed=2)
    page, _ = _get(server, f"/t/{table['table']}/replay", {"Accept-Language": "pt-BR"})
    assert _lang(page) == "pt-BR" and ">Placar <" in page and " joga " in page
    page, _ = _get(server, f"/t/{table['table']}/replay")
    assert _lang(page) == "en" and " plays " in page


def _api(server: Running, path: str, body: bytes | None,
         headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    """An API request's status and JSON answer (a refusal's too)."""
    req = urllib.request.Request(server.base + path, body, {"Content-Type": "application/json",
                                                            **headers})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.parametrize(("path", "body", "code", "english", "portuguese"), [
    ("/api/tables", b'{"variant": "paulista", "seats": "x"}', "seats",
     "seats: a list of 'human' or a bot level per seat",
     "seats: uma lista de 'human' ou um nível de robô por lugar"),
    ("/api/check", b'{"variant": "paulista", "nope": 1}', "unknown_key",
     "'nope' is not a key here: upload, variant", "'nope' não é uma chave aqui: upload, variant"),
    ("/api/check", b"{not json", "malformed", "the request is not JSON", "o pedido não é JSON"),
    ("/api/tables", b'{"variant": "paulista", "upload": {"text": "x"}}', "variant",
     "give a shipped variant's name (variant) or a house variant (upload), one of the two",
     "dê o nome de uma variante incluída (variant) ou uma variante da casa (upload), uma das "
     "duas"),
    ("/t/nowhere/log", None, "no_table", "no such table", "essa mesa não existe"),
    ("/api/check", json.dumps({"upload": {"name": "casa.yaml", "text": "extends: paulista\n"
                                          "name: casa\nplayers: seven\n"}}).encode(),
     "variant", 'casa.yaml:3:10: players: expected an integer, found "seven"',
     'casa.yaml:3:10: players: esperava-se um número inteiro, encontrado "seven"'),
])
def test_the_api_s_refusals_speak_the_request_s_language(
        server: Running, path: str, body: bytes | None, code: str, english: str,
        portuguese: str) -> None:
    asked = [({}, english), ({"Accept-Language": "pt-BR,pt;q=0.9"}, portuguese),
             ({"Cookie": "lang=pt-BR", "Accept-Language": "en"}, portuguese),
             ({"Cookie": "lang=en", "Accept-Language": "pt-BR"}, english)]
    for headers, said in asked:
        status, answer = _api(server, path, body, headers)
        assert status >= 400 and answer == {"error": code, "message": said,
                                            "problems": [said]}, headers
