"""Logs received from others (issue 26): a log's header, and any ``extends`` below it, may name
any ``.yaml`` file, absolute or ``../``. By default such a file is read, but never quoted
unless it is a variant (a ``.yaml`` link to a file of another name is not even read); with
``truco verify --trusted-variants-only`` only shipped names and files under ``--trust``
folders are read, links resolved, and anything else is refused unread.
"""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.errors import VariantError
from engine.replay import verify_file
from engine.variant import load_variant, trusted_variants_only

SECRET = "root:$6$SECRET-HASH:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result.exit_code, result.output


def header_log(path: Path, variant: str) -> Path:
    """A log of one header line naming ``variant`` (enough: the variant is read first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"truco_log": 1, "variant": variant, "seed": 1}) + "\n",
                    encoding="utf-8")
    return path


@pytest.fixture
def received(tmp_path: Path) -> dict[str, Path]:
    """``mine/`` (trusted: a house variant and one that extends a file outside), ``outside/``
    (a valid variant, a secret, links to them from inside mine/), and ``in/``, the logs
    received, one per case."""
    mine, outside, logs = tmp_path / "mine", tmp_path / "outside", tmp_path / "in"
    for folder in (mine, outside, logs):
        folder.mkdir()
    (mine / "house.yaml").write_text("extends: paulista\n", encoding="utf-8")
    (outside / "valid.yaml").write_text("extends: paulista\n", encoding="utf-8")
    (outside / "shadow.yaml").write_text(SECRET, encoding="utf-8")
    (mine / "climbs.yaml").write_text("extends: ../outside/valid.yaml\n", encoding="utf-8")
    (mine / "link.yaml").symlink_to(outside / "valid.yaml")
    code, out = run("record", "-v", str(mine / "house.yaml"), "-s", "3", "--out",
                    str(logs / "house.jsonl"))
    assert code == 0, out
    code, out = run("record", "-v", "paulista", "-s", "4", "--out", str(logs / "shipped.jsonl"))
    assert code == 0, out
    return {
        "house": logs / "house.jsonl",
        "shipped": logs / "shipped.jsonl",
        "absolute": header_log(logs / "absolute.jsonl", str(outside / "valid.yaml")),
        "dotdot": header_log(logs / "dotdot.jsonl", "../outside/valid.yaml"),
        "shadow": header_log(logs / "shadow.jsonl", "../outside/shadow.yaml"),
        "climbs": header_log(logs / "climbs.jsonl", "../mine/climbs.yaml"),
        "link": header_log(logs / "link.jsonl", "../mine/link.yaml"),
        "mine": mine, "outside": outside, "in": logs,
    }


REFUSED = ["absolute", "dotdot", "shadow", "climbs", "link"]


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files opened from now on (``open`` and ``Path.open``), links resolved."""
    seen: list[Path] = []
    real_path_open, real_open = Path.open, builtins.open

    def path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append(self.resolve())
        return real_path_open(self, *args, **kwargs)

    def any_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, Path)):
            seen.append(Path(file).resolve())
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "open", path_open)
    monkeypatch.setattr(builtins, "open", any_open)
    return seen


def test_by_default_a_log_may_name_any_variant_file(received: dict[str, Path]) -> None:
    """The policy is opt-in: by default, absolute and ../ paths are read (a valid variant
    is a valid variant), and a file that is not a variant is refused without a word of it."""
    code, out = run("verify", str(received["in"]))
    assert code == 1, out
    assert "7 logs: 6 valid (4 of them incomplete), 1 invalid" in out  # a header alone
    assert "shadow.jsonl:1: variant '../outside/shadow.yaml' is invalid" in out
    assert "not a variant file: none of its 2 top-level key(s) is a variant key" in out
    assert "SECRET" not in out and "19000" not in out


@pytest.mark.parametrize("case", REFUSED)
def test_trusted_variants_only_refuses_any_other_file_unread(
        received: dict[str, Path], case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = _reads(monkeypatch)
    code, out = run("verify", str(received[case]), "--trusted-variants-only", "--trust",
                    str(received["mine"]))
    assert code == 1, out
    assert "is not a trusted variant: only shipped variants and files under " \
           f"{received['mine'].resolve()} are read" in out
    assert "SECRET" not in out
    assert not any(p.is_relative_to(received["outside"].resolve()) for p in reads), reads


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_trusted_variants_only_reads_shipped_names_and_files_under_trust(
        received: dict[str, Path], jobs: str) -> None:
    """The policy travels with the chunks to the worker processes (``--jobs 2``)."""
    code, out = run("verify", str(received["in"]), "--trusted-variants-only", "--trust",
                    str(received["mine"]), "--jobs", jobs)
    assert code == 1, out
    assert "7 logs: 2 valid, 5 invalid" in out
    assert out.count("is not a trusted variant") == len(REFUSED)
    code, out = run("verify", str(received["house"]), str(received["shipped"]),
                    "--trusted-variants-only", "--trust", str(received["mine"]), "-j", jobs)
    assert code == 0 and "2 logs: 2 valid, 0 invalid" in out, out


def test_trusted_variants_only_without_trust_reads_shipped_variants_only(
        received: dict[str, Path]) -> None:
    code, out = run("verify", str(received["shipped"]), str(received["house"]),
                    "--trusted-variants-only")
    assert code == 1, out
    assert "house.jsonl:1: variant '../mine/house.yaml' is invalid: " in out
    assert "is not a trusted variant: only shipped variants are read" in out
    assert "2 logs: 1 valid, 1 invalid" in out


def test_trust_without_trusted_variants_only_is_a_usage_error(
        received: dict[str, Path]) -> None:
    code, out = run("verify", str(received["house"]), "--trust", str(received["mine"]))
    assert code == 2 and "--trust DIR goes with --trusted-variants-only" in out


def test_a_variant_loaded_before_is_checked_again_under_the_policy(
        received: dict[str, Path]) -> None:
    """Variant files are kept by the process that loaded them (a Dask worker verifies for
    many commands): a file read without the policy is not handed out under it."""
    assert verify_file(received["dotdot"]).valid
    with trusted_variants_only([received["mine"]]):
        refused = verify_file(received["dotdot"])
    assert not refused.valid and "is not a trusted variant" in str(refused.problems[0])
    assert verify_file(received["dotdot"]).valid  # and the policy ends with its block


def test_a_yaml_link_to_a_file_of_another_name_is_not_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: a ``.yaml`` link to ``/etc/passwd`` was read (named as a variant, the file
    was not one). The name a link gives is not the file's: the file it names must end in
    .yaml too."""
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    (tmp_path / "passwd.yaml").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "v.yaml").write_text("extends: passwd.yaml\n", encoding="utf-8")
    reads = _reads(monkeypatch)
    for target in ("passwd.yaml", "v.yaml"):
        with pytest.raises(VariantError, match="a link to .*secret.txt, which is not a "
                                               "variant file") as info:
            load_variant(tmp_path / target)
        assert "SECRET" not in str(info.value)
    log = header_log(tmp_path / "a.jsonl", "passwd.yaml")
    code, out = run("verify", str(log))
    assert code == 1 and "(it is not read)" in out and "SECRET" not in out, out
    assert reads and (tmp_path / "secret.txt").resolve() not in reads


def test_a_file_with_no_variant_key_is_named_never_quoted(tmp_path: Path) -> None:
    """A mapping none of whose keys is a variant's (``/etc/shadow`` named ``x.yaml``) used to
    come back key by key in "unknown key" errors, hashes and all."""
    (tmp_path / "shadow.yaml").write_text(SECRET, encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: shadow.yaml\n", encoding="utf-8")
    for target in ("shadow.yaml", "v.yaml"):
        code, out = run("variants", "check", str(tmp_path / target))
        assert code == 1, out
        assert f"{tmp_path / 'shadow.yaml'}:1:1: not a variant file" in out or \
               "shadow.yaml:1:1: not a variant file" in out, out
        assert "SECRET" not in out and "19000" not in out
