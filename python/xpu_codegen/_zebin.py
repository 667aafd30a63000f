"""Reading zebins with the project's C++ reader."""

import os
from typing import Union

from . import _xpu_codegen
from ._types import ZebinInfo, ZebinKernel


def read_zebin(source: Union[bytes, bytearray, memoryview, str, os.PathLike]
               ) -> ZebinInfo:
    """Reads a zebin (bytes, or a path) with the project's C++ reader.

    Raises ``ValueError`` when it is not a readable zebin.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            data = f.read()
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
