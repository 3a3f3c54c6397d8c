"""The bot faults a run counted (``engine.simulate.Faults``), in the reader's words: the last
line of ``truco simulate``'s and ``truco tournament``'s reports."""

from __future__ import annotations

from engine import i18n
from engine.simulate import Faults

#: Each kind of bot fault (engine.protocol.external) as a person reads it, with its number:
#: in English the kind itself (as ``--json`` keeps it), in other languages their words.
FAULT_WORDS = {
    "crash": i18n.nmark("{n} crash", "{n} crash"),
    "flood": i18n.nmark("{n} flood", "{n} flood"),
    "garbage": i18n.nmark("{n} garbage", "{n} garbage"),
    "illegal": i18n.nmark("{n} illegal", "{n} illegal"),
    "timeout": i18n.nmark("{n} timeout", "{n} timeout"),
}


def describe_faults(faults: Faults) -> str:
    """The faults in words, for a report's last line, in the reader's language.

    >>> describe_faults({"cmd:./a": {"garbage": 2, "timeout": 1}})
    'cmd:./a: 2 garbage, 1 timeout'
    >>> with i18n.using("pt-BR"):
    ...     describe_faults({"cmd:./a": {"garbage": 2, "timeout": 1}})
    'cmd:./a: 2 mensagens inválidas, 1 tempo esgotado'
    """
    def said(kind: str, n: int) -> str:
        if kind not in FAULT_WORDS:  # a kind this version does not know: its code
            return f"{n} {kind}"
        return i18n.ngettext(*FAULT_WORDS[kind], n).format(n=n)

    return "; ".join(f"{name}: " + ", ".join(said(kind, n) for kind, n in kinds.items())
                     for name, kinds in faults.items())
