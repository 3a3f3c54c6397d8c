"""The language of a page of ``truco serve``: chosen by its switch (``?lang=pt-BR``, then kept
in a cookie), else the browser's ``Accept-Language``; English where nothing asks otherwise.

A page calls :func:`page` with its template: the template's ``{{ message }}`` marks are
spoken in the request's language (:func:`engine.i18n.localize_html`), ``$i18n`` is the
catalog its script reads (``_()``, ``ngettext()`` of ``i18n.js``) and ``$switch`` the links
that change the language. Nothing else of the server depends on the language but the words a
connection is sent (its join message's ``lang``) and an API answer's (:func:`spoken`)."""

from __future__ import annotations

import functools
import html
from collections.abc import Awaitable, Callable
from string import Template

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from engine import i18n
from engine.viewer import asset, embed_json

#: The query parameter of the page's switch and the cookie that keeps its choice.
PARAM = COOKIE = "lang"
#: Each language's name in itself (the switch offers it by that name in every language).
NAMES = {"en": "English", "pt-BR": "Português"}
_YEAR = 365 * 24 * 3600


def offered(text: str | None) -> str | None:
    """The language ``text`` names if a page speaks it (the test locale ``qps`` too)."""
    if not text:
        return None
    found = i18n.tag(text[:40])
    return found if found in i18n.LANGUAGES or found == i18n.PSEUDO else None


def accept_language(header: str) -> str | None:
    """The language a browser's ``Accept-Language`` prefers among those offered.

    >>> accept_language("fr-FR,fr;q=0.9,pt-BR;q=0.8,en;q=0.5"), accept_language("de")
    ('pt-BR', None)
    """
    ranked = []
    for n, part in enumerate(header[:400].split(",")):
        name, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        found = offered(name) if name.strip() != "*" else None
        if found is not None and found != i18n.PSEUDO and q > 0:
            ranked.append((-q, n, found))
    return min(ranked)[2] if ranked else None


def language(request: Request) -> str:
    """The language of ``request``'s page: ``?lang=``, the cookie, ``Accept-Language``."""
    return (offered(request.query_params.get(PARAM)) or offered(request.cookies.get(COOKIE))
            or accept_language(request.headers.get("accept-language", "")) or i18n.ENGLISH)


def spoken(handler: Callable[[Request], Awaitable[Response]]
           ) -> Callable[[Request], Awaitable[Response]]:
    """``handler`` run in its request's language (:func:`language`): the words of its
    answer, an API refusal's ``message`` and ``problems`` too (their ``error`` code is the
    same in every language)."""
    @functools.wraps(handler)
    async def run(request: Request) -> Response:
        with i18n.using(language(request)):
            return await handler(request)
    return run


def switch(lang: str) -> str:
    """The links to the page in each other language offered."""
    links = [f'<a href="?{PARAM}={tag}" hreflang="{tag}" lang="{tag}" data-lang="{tag}">'
             f"{html.escape(name)}</a>" for tag, name in NAMES.items() if tag != lang]
    return '<nav class="lang">' + " ".join(links) + "</nav>"


def page(request: Request, template: str, script: str, **values: str) -> HTMLResponse:
    """The page of ``template`` in the request's language (a choice by ``?lang=`` kept in
    the cookie), with its ``script`` (``$script``) and the messages it uses (``$i18n``).
    ``values`` fill its other ``$names``."""
    lang = language(request)
    with i18n.using(lang):
        text = Template(i18n.localize_html(template)).substitute(
            i18n=embed_json(i18n.catalog_json(lang, script)), i18n_js=asset("i18n.js"),
            switch=switch(lang), script=script, **values)
    response = HTMLResponse(text, headers={"Cache-Control": "no-store",
                                           "Referrer-Policy": "no-referrer",
                                           "Content-Language": lang,
                                           "Vary": "Accept-Language, Cookie"})
    if offered(request.query_params.get(PARAM)) is not None:
        response.set_cookie(COOKIE, lang, max_age=_YEAR, samesite="lax")
    return response
