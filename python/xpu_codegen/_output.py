"""Output files written atomically and through symlinks.

The same rules as the C++ side (include/XPUCodegen/Compiler/Codegen/
OutputFile.h): a symlink stays a link and its target gets the contents; a
regular file (or a new one) is replaced atomically by a temporary file in
its directory renamed onto it, keeping its permissions; what is not a
regular file (a device such as /dev/null or /dev/full, a FIFO with a
reader) is written in place and never replaced. Errors are OSError naming
the path the caller gave.
"""

import errno
import os
import secrets
import stat


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written == 0:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        view = view[written:]


def _write_in_place(target, data):
    # Non-blocking open: a FIFO without a reader is ENXIO, not a hang.
    fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _replace_atomically(target, data, old):
    directory, name = os.path.split(target)
    while True:
        temp = os.path.join(directory,
                            f".{name}.tmp-{secrets.token_hex(6)}")
        try:
            # 0o666 less the umask, as a new file would get.
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:
            continue
    try:
        try:
            _write_all(fd, data)
            if old is not None:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def write_output(path, data: bytes) -> None:
    """Writes ``data`` to ``path`` (see the module docstring); an empty
    path is a ``ValueError``."""
    path = os.fspath(path)
    if not path:
        raise ValueError("the output path is empty")
    try:
        # Every link resolved, dangling ones too (strict=False).
        target = os.path.realpath(path)
        try:
            old = os.stat(target)
        except FileNotFoundError:
            old = None
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if old is not None and not stat.S_ISREG(old.st_mode):
            _write_in_place(target, data)
        else:
            _replace_atomically(target, data, old)
    except OSError as error:
        raise type(error)(error.errno, error.strerror, path) from None
