"""The impact of a rule change: recorded games and simulated statistics under two variants.

:func:`compare_logs` replays every log written under variant A with variant B, without editing
it (:func:`engine.replay.replay` with ``rules=``), and sorts each into: ``same`` (valid under B,
every checkpoint as under A), ``invalid`` (B rejects a line: the first one, and why), ``changed``
(B accepts every move but the outcome differs: the first differing checkpoint). A's outcome is
what the engine computes under A, so a log with checkpoints and a moves-only log are compared the
same way. Logs written under other variants are skipped and counted; a log that A already
rejects is reported as such (it says nothing about the change).

:func:`compare_simulations` lets the same bots play the same seeded matches under both variants,
puts the statistics of :func:`engine.simulate.run_simulation` side by side and tests each
difference on per-match numbers (:func:`two_proportions`, :func:`welch` on a per-match mean or on
a ratio's delta-method linearization, :func:`holm` for the many tests at once).

>>> report = compare_logs("mineiro", "mineiro-12", ["replays/mineiro-seed1.jsonl"])
>>> [(log.file, log.status) for log in report.logs]
[('replays/mineiro-seed1.jsonl', 'same')]
"""

from __future__ import annotations

from engine.compare.logs import (
    STATUSES,
    Difference,
    LogComparison,
    LogsReport,
    Status,
    compare_log,
    compare_logs,
    describe,
    difference_text,
    first_difference,
    format_logs,
    labels,
    log_files,
    written_under,
)
from engine.compare.simulations import compare_simulations, differences, format_simulations
from engine.compare.stats import (
    CORRECTIONS,
    Moments,
    Sample,
    Significance,
    assess,
    holm,
    match_values,
    mean_sample,
    ratio_sample,
    run_test,
    spec_of,
    two_proportions,
    welch,
)

__all__ = [
    "CORRECTIONS", "STATUSES", "Difference", "LogComparison", "LogsReport", "Moments",
    "Sample", "Significance", "Status", "assess", "compare_log", "compare_logs",
    "compare_simulations", "describe", "difference_text", "differences", "first_difference",
    "format_logs", "format_simulations", "holm", "labels", "log_files", "match_values",
    "mean_sample", "ratio_sample", "run_test", "spec_of", "two_proportions", "welch",
    "written_under",
]
