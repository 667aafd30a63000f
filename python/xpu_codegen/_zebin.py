"""Reading zebins with the project's C++ reader."""

import os
from typing import Union

from . import _xpu_codegen
from ._input import ZEBIN_SIZE_LIMIT, read_input_file
from ._types import ZebinInfo, ZebinKernel


def read_zebin(source: Union[bytes, bytearray, memoryview, str, os.PathLike]
               ) -> ZebinInfo:
    """Reads a zebin (bytes, or a path) with the project's C++ reader.

    Raises ``ValueError`` when it is not a readable zebin, ``OSError`` when
    the path cannot be read: only a regular file of at most 64 MiB is read
    (a device, FIFO or socket is refused at once, never read or waited on).
    """
    if isinstance(source, (str, os.PathLike)):
        data = read_input_file(source, ZEBIN_SIZE_LIMIT, "zebins")
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        raise TypeError("source must be bytes or a path, got "
                        f"{type(source).__name__}")
    info = _xpu_codegen.read_zebin(data)
    if info["error"] is not None:
        raise ValueError(f"not a readable zebin: {info['error']}")
    return ZebinInfo(
        ze_info_version=info["ze_info_version"],
        kernels=tuple(ZebinKernel(**k) for k in info["kernels"]),
    )
