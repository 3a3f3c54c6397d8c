"""A house variant's problems in the lobby's language (issue 43, engine/variant/told.py): the
loader's frame and commonest messages said through the catalog, the location and key path kept,
English as the loader writes it (but a count, in its plural form); a rule's own check said
again from its template (tests/test_lang_leftovers.py tries every one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import doctests

import engine.variant.told
from engine import i18n
from engine.errors import VariantError
from engine.serve.store import check_house, shipped, variant_errors
from engine.variant.told import CLOSEST, EXPECTED, TEMPLATES, WORDS


def test_the_module_examples_run() -> None:
    result = doctests(engine.variant.told)
    assert result.attempted >= 1 and result.failed == 0


def _problems(text: str, folder: Path) -> VariantError:
    with pytest.raises(VariantError) as caught:
        check_house(text, "casa.yaml", folder)
    return caught.value


@pytest.mark.parametrize(("text", "english", "portuguese"), [
    ("extends: paulista\nname: casa\nplayers: seven\n",
     'casa.yaml:3:10: players: expected an integer, found "seven"',
     'casa.yaml:3:10: players: esperava-se um número inteiro, encontrado "seven"'),
    ("extends: paulista\nname: casa\nspecial_hands: 3\n",
     "casa.yaml:3:16: special_hands: expected a mapping or a list, found 3",
     "casa.yaml:3:16: special_hands: esperava-se um mapeamento ou uma lista, encontrado 3"),
    ("extends: paulista\nname: casa\nfoo: 1\n",
     "casa.yaml:3:1: foo: unknown key 'foo'; expected one of: $schema, betting,",
     "casa.yaml:3:1: foo: chave desconhecida 'foo'; esperava-se uma de: $schema, betting,"),
    ("extends: paulistx\nname: casa\n",
     "casa.yaml:1:10: extends: unknown variant 'paulistx': expected a shipped name (did you "
     "mean paulista? truco variants list names them all) or a path to a .yaml file",
     "casa.yaml:1:10: extends: variante desconhecida 'paulistx': esperava-se o nome de uma "
     "variante incluída (você quis dizer paulista? truco variants list mostra todas) ou o "
     "caminho de um arquivo .yaml"),
    ("- 1\n", "casa.yaml:1:1: expected a mapping of variant keys at the top level, found a list",
     "casa.yaml:1:1: esperava-se um mapeamento de chaves de variante no nível mais alto, "
     "encontrado: uma lista"),
    ("", "casa.yaml:1:1: empty file: expected a mapping of variant keys",
     "casa.yaml:1:1: arquivo vazio: esperava-se um mapeamento de chaves de variante"),
    ("extends: paulista\nname: [x\n", "casa.yaml:3:1: invalid YAML: while parsing",
     "casa.yaml:3:1: YAML inválido: while parsing"),  # the parser's words stay
    ("x" * 200_001, "casa.yaml: a variant file is at most 200000 bytes",
     "casa.yaml: um arquivo de variante tem no máximo 200000 bytes"),
])
def test_an_upload_s_problems_in_portuguese_and_english_as_before(
        tmp_path: Path, text: str, english: str, portuguese: str) -> None:
    exc = _problems(text, tmp_path)
    assert str(exc).startswith(english) and variant_errors(exc)[0].startswith(english)
    with i18n.using("pt-BR"):
        assert variant_errors(exc)[0].startswith(portuguese)
    assert str(exc).startswith(english)  # the error itself keeps the loader's English


def test_every_problem_is_told_and_a_rule_s_own_check_too(tmp_path: Path) -> None:
    exc = _problems("extends: paulista\nname: casa\ntitle: 3\nplayers: 3\nfoo: 1\n", tmp_path)
    with i18n.using("pt-BR"):
        said = variant_errors(exc)
    assert len(said) == len(exc.errors) >= 2
    assert said[0] == "casa.yaml:3:8: title: esperava-se um texto, encontrado 3"
    exc = _problems("extends: paulista\nname: casa\nplayers: 3\n", tmp_path)
    assert str(exc) == variant_errors(exc)[0] == (
        "casa.yaml:3:10: players: 3 players cannot sit as two teams in alternate seats: "
        "expected teams (three players each for himself: [[0], [1], [2]])")
    with i18n.using("pt-BR"):
        assert variant_errors(exc) == [
            "casa.yaml:3:10: players: 3 jogadores não se sentam como duas equipes em lugares "
            "alternados: esperava-se teams (três jogadores, cada um por si: [[0], [1], [2]])"]


def test_a_name_that_is_no_shipped_variant() -> None:
    with pytest.raises(VariantError) as caught:
        shipped("nope")
    with i18n.using("pt-BR"):
        said = variant_errors(caught.value)
    assert said[0].startswith("variant: não é uma variante incluída; esperava-se uma de ")
    assert said[0].endswith(", ou uma variante da casa enviada")


@pytest.mark.parametrize("template", [*TEMPLATES, *EXPECTED, *CLOSEST, *sorted(WORDS)])
def test_every_template_is_in_the_catalog_and_translated(template: str) -> None:
    said = i18n.translations("pt-BR").gettext(template)
    assert said and said != template


LADDER = "extends: paulista\nname: casa\nbetting:\n  ladder:\n"


@pytest.mark.parametrize(("text", "loader", "english", "portuguese"), [
    (LADDER + "    - {value: 3}\n", "missing key(s): name", "missing key: name",
     "chave ausente: name"),
    (LADDER + "    - {}\n", "missing key(s): value, name", "missing keys: value, name",
     "chaves ausentes: value, name"),
    ("a: 1\n", "none of its 1 top-level key(s) is a variant key",
     "its 1 top-level key is not a variant key", "tem 1 chave no nível mais alto, que não é"),
    ("a: 1\nb: 2\n", "none of its 2 top-level key(s) is a variant key",
     "none of its 2 top-level keys is a variant key",
     "nenhuma das suas 2 chaves do nível mais alto é"),
    ("extends: paulista\nname: casa\nteams: [[0, 1, 2, 3]]\n",
     "teams: expected at least 2 item(s), found", "teams: expected at least 2 items, found",
     "teams: esperava-se no mínimo 2 itens, encontrado"),
    ("extends: paulista\nname: casa\nspecial_hands:\n" + "  - {}\n" * 33,
     "special_hands: expected at most 32 item(s), found 33",
     "special_hands: expected at most 32 items, found 33",
     "special_hands: esperava-se no máximo 32 itens, encontrados 33"),
    ("extends: paulista\nname: casa\ncard_names:\n" + "".join(f"  k{i}: x\n" for i in range(69)),
     "card_names: expected at most 68 key(s), found 69",
     "card_names: expected at most 68 keys, found 69",
     "card_names: esperava-se no máximo 68 chaves, encontradas 69"),
], ids=["one missing", "two missing", "one top-level key", "two top-level keys", "at least",
        "items", "keys"])
def test_a_count_is_told_in_its_plural_form_the_loader_s_english_as_it_was(
        tmp_path: Path, text: str, loader: str, english: str, portuguese: str) -> None:
    exc = _problems(text, tmp_path)
    assert loader in str(exc).splitlines()[0]  # what programs read (--json) stays
    assert english in variant_errors(exc)[0] and "(s)" not in variant_errors(exc)[0]
    with i18n.using("pt-BR"):
        said = variant_errors(exc)[0]
    assert portuguese in said and "(s)" not in said and "(ns)" not in said
