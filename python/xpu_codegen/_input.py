"""Input files read with a bound: regular files only, never a hang.

The rules of the C++ readers (CompileCache.cpp): the file is opened
non-blocking, so a FIFO without a writer never blocks the open; the opened
file is ``fstat``ed and only a regular file is read (a device such as
/dev/zero never ends, a FIFO or socket may never answer); its size is
checked against the limit before reading (a sparse 3 GiB file is refused
at once) and again while reading (a file that grows is cut off). Errors are
OSError naming the path, so callers report them as any unreadable file.
"""

import errno
import os
import stat

#: Largest zebin read from a file (as the C++ reader's ``.ze_info`` cap).
ZEBIN_SIZE_LIMIT = 64 << 20
#: Largest MLIR or SPIR-V source read from a file: far more than IGC can
#: compile within a worker's default 8 GiB.
SOURCE_SIZE_LIMIT = 256 << 20

_CHUNK = 1 << 20

_KINDS = ((stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))


def _kind_of(mode: int) -> str:
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def _too_large(path, what: str, limit: int, size: int = 0) -> OSError:
    """The error for a file over the limit (``size`` 0: it grew past the
    limit while it was read)."""
    over = f"over the {limit >> 20} MiB limit for {what}"
    reason = f"{size} bytes is {over}" if size else f"grew {over} while read"
    return OSError(errno.EFBIG, reason, path)


def read_input_file(path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``what`` names the kind of input in the error ("zebins"). Raises
    OSError (``IsADirectoryError`` for a directory, ``EINVAL`` for what is
    not a regular file, ``EFBIG`` over the limit) naming ``path``.
    """
    path = os.fspath(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR),
                                    path)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"{_kind_of(info.st_mode)}, not a "
                          f"regular file", path)
        if info.st_size > limit:
            raise _too_large(path, what, limit, info.st_size)
        return _read_at_most(fd, path, limit, what, info.st_size)
    finally:
        os.close(fd)


def _read_at_most(fd: int, path: str, limit: int, what: str,
                  expected: int) -> bytes:
    """Reads to the end, failing once more than ``limit`` bytes came (the
    file grew after fstat)."""
    chunks, total = [], 0
    # The whole file in one read when its size is right; one byte more
    # tells whether it grew.
    want = expected + 1
    while True:
        chunk = os.read(fd, min(want, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise _too_large(path, what, limit)
        want = _CHUNK
