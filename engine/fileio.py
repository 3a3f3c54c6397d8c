"""Writing files so that nothing is lost: whole files are written to a temporary file beside
the target and renamed over it (atomic on POSIX), so a crash leaves the old file or the new one,
never half of one; a folder of files (``truco simulate --logs``) is filled beside its target and
swapped in whole, so it never holds old and new files mixed.

Modes are the usual ones: a new file gets ``0666 & ~umask`` (``-rw-r--r--`` under umask 022) and
a new folder ``0777 & ~umask``, as ``open()`` and ``mkdir`` would give them; a file or folder
that is replaced keeps the mode it had (as editors do), never the ``0600``/``0700`` of the
temporary one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path


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


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically, with the usual mode
    (a replaced file keeps its own)."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent or ".")
    except OSError as exc:  # named after the target, not the temporary file
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        os.fchmod(fd, _mode_for(target, 0o666))  # mkstemp makes it 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
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


@contextlib.contextmanager
def atomic_folder(path: str | os.PathLike[str], *, replace: bool = False) -> Iterator[Path]:
    """Fill a folder that takes the place of ``path`` whole.

    Yields a new empty temporary folder beside ``path`` (``.NAME.XXXX.tmp``); when the block
    ends without an error, it becomes ``path``. An existing empty folder is simply replaced; a
    folder with files in it only with ``replace=True`` (else :class:`FileExistsError` before
    anything is made), and then all of its content goes: the result never mixes old and new
    files. If the block fails, the temporary folder is removed and ``path`` is left as it was.
    (Between the two renames of a swap, ``path`` is briefly absent; the old folder is then
    ``.NAME.XXXX.old.tmp`` beside it until it is removed. A process killed outright leaves its
    ``.NAME.XXXX.tmp`` folder beside ``path``, which is itself untouched.)
    """
    target = Path(os.path.realpath(path))  # a link to a folder: the folder it names is filled
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(target))
    if not replace and target.is_dir() and not is_empty_folder(target):
        raise FileExistsError(17, "the folder is not empty", str(target))
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
        _swap_in(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap_in(new: Path, target: Path) -> None:
    """Rename the folder ``new`` to ``target``, replacing what is there."""
    if not target.exists() or is_empty_folder(target):
        os.replace(new, target)  # POSIX: a rename may replace an empty folder
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old.tmp",
                                dir=target.parent))
    os.replace(target, old)  # over the empty folder just made
    try:
        os.replace(new, target)
    except BaseException:
        os.replace(old, target)  # put the old folder back
        raise
    shutil.rmtree(old, ignore_errors=True)
