"""Writing files so that nothing is lost: whole files are written to a temporary file beside
the target and renamed over it (atomic on POSIX), so a crash leaves the old file or the new one,
never half of one; a folder of files (``truco simulate --logs``) is filled beside its target and
swapped in whole, so it never holds old and new files mixed.

Modes are the usual ones: a new file gets ``0666 & ~umask`` (``-rw-r--r--`` under umask 022) and
a new folder ``0777 & ~umask``, as ``open()`` and ``mkdir`` would give them; a file or folder
that is replaced keeps the mode it had (as editors do), never the ``0600``/``0700`` of the
temporary one.

Only a regular file is ever replaced: a target that is a symbolic link, a named pipe, a device,
a socket or a folder is left as it is and the write fails (:func:`not_replaceable`), so
``--force`` never turns ``/dev/null`` or a FIFO into a file. A folder is replaced whole only
when everything in it is a regular file that the caller says it may replace (``only``: the logs
a run writes), never a file it did not write (a variant, notes, a subfolder).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from engine.i18n import _, mark


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back: Python 3.11 has no
    getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path, new: int) -> int:
    """The mode ``target`` keeps if it exists, else ``new & ~umask``."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return new & ~current_umask()


def file_kind(mode: int) -> str:
    """What an ``lstat`` mode is, in words: ``a named pipe (FIFO)``, ``a device``... (in
    English, each a message of the catalog: ``_(file_kind(mode))`` says it in the reader's)

    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFREG | 0o644)
    ('a named pipe (FIFO)', 'a regular file')
    """
    if stat.S_ISREG(mode):
        return mark("a regular file")
    if stat.S_ISLNK(mode):
        return mark("a symbolic link")
    if stat.S_ISFIFO(mode):
        return mark("a named pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return mark("a device")
    if stat.S_ISSOCK(mode):
        return mark("a socket")
    if stat.S_ISDIR(mode):
        return mark("a folder")
    return mark("not a regular file")


def not_replaceable(path: str | os.PathLike[str]) -> str | None:
    """Why a write may not replace ``path`` (``it is a named pipe (FIFO), not a regular
    file``), or None where it may: ``path`` is missing or a regular file. The path itself is
    looked at, never what a symbolic link names (a link is not replaced by a file: what it
    names would silently stop being the target)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:  # missing, or unreadable: the write itself says what is wrong
        return None
    if stat.S_ISREG(mode):
        return None
    return _("it is {kind}, not a regular file").format(kind=_(file_kind(mode)))


def _refuse_unless_replaceable(target: Path) -> None:
    problem = not_replaceable(target)
    if problem is not None:
        raise OSError(errno.EEXIST, _("{problem}: only a regular file is replaced; it is left "
                                      "as it is").format(problem=problem), str(target))


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically, with the usual mode
    (a replaced file keeps its own). A target that exists and is not a regular file (a link,
    a pipe, a device, a folder) is never replaced: :class:`OSError`, and it is left as it is."""
    with atomic_text_file(path) as f:
        f.write(text)


@contextlib.contextmanager
def atomic_text_file(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """:func:`atomic_write_text` written piece by piece: a text file (UTF-8, ``\\n`` line
    ends) that takes ``path``'s place when the block ends, and is removed if it raises."""
    target = Path(path)
    _refuse_unless_replaceable(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent or ".")
    except OSError as exc:  # named after the target, not the temporary file
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        os.fchmod(fd, _mode_for(target, 0o666))  # mkstemp makes it 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def is_empty_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a folder with nothing in it."""
    with os.scandir(path) as entries:
        return next(entries, None) is None


def foreign_entries(folder: str | os.PathLike[str],
                    only: Callable[[str], bool] | None = None) -> list[str]:
    """The names in ``folder`` that a replacement of it would destroy although no run wrote
    them: anything that is not a regular file, and with ``only`` any file whose name it does
    not accept (sorted).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     for name in ("match-000001.jsonl", "notes.txt"):
    ...         open(os.path.join(root, name), "w").close()
    ...     os.mkdir(os.path.join(root, "sub"))
    ...     foreign_entries(root, lambda name: name.endswith(".jsonl"))
    ['notes.txt', 'sub']
    """
    out = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.is_file(follow_symlinks=False) or (only is not None
                                                            and not only(entry.name)):
                out.append(entry.name)
    return sorted(out)


def _check_replaceable_folder(target: Path, only: Callable[[str], bool] | None) -> None:
    foreign = foreign_entries(target, only)
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise FileExistsError(errno.EEXIST, f"it holds {foreign[0]}{more}, which this command "
                                            "did not write: the folder is left as it is",
                              str(target))


@contextlib.contextmanager
def atomic_folder(path: str | os.PathLike[str], *, replace: bool = False,
                  only: Callable[[str], bool] | None = None) -> Iterator[Path]:
    """Fill a folder that takes the place of ``path`` whole.

    Yields a new empty temporary folder beside ``path`` (``.NAME.XXXX.tmp``); when the block
    ends without an error, it becomes ``path``. An existing empty folder is simply replaced; a
    folder with files in it only with ``replace=True`` (else :class:`FileExistsError` before
    anything is made), and then all of its content goes: the result never mixes old and new
    files. A folder is replaced only when it holds nothing but regular files that ``only``
    accepts by name (:func:`foreign_entries`; checked before anything is made and again
    before the swap: else :class:`FileExistsError`). If the block fails, the temporary folder
    is removed and ``path`` is left as it was.
    (Between the two renames of a swap, ``path`` is briefly absent; the old folder is then
    ``.NAME.XXXX.old.tmp`` beside it until it is removed. A process killed outright leaves its
    ``.NAME.XXXX.tmp`` folder beside ``path``, which is itself untouched.)
    """
    target = Path(os.path.realpath(path))  # a link to a folder: the folder it names is filled
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(target))
    if target.is_dir() and not is_empty_folder(target):
        if not replace:
            raise FileExistsError(17, "the folder is not empty", str(target))
        _check_replaceable_folder(target, only)
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(target, 0o777)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        yield tmp
        os.chmod(tmp, mode)  # mkdtemp makes it 0700
        _swap_in(tmp, target, only)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap_in(new: Path, target: Path, only: Callable[[str], bool] | None) -> None:
    """Rename the folder ``new`` to ``target``, replacing what is there (only files ``only``
    accepts: anything else that came while the block ran stops the swap)."""
    if not target.exists() or is_empty_folder(target):
        os.replace(new, target)  # POSIX: a rename may replace an empty folder
        return
    _check_replaceable_folder(target, only)
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old.tmp",
                                dir=target.parent))
    os.replace(target, old)  # over the empty folder just made
    try:
        os.replace(new, target)
    except BaseException:
        os.replace(old, target)  # put the old folder back
        raise
    shutil.rmtree(old, ignore_errors=True)
