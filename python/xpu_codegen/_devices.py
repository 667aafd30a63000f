"""The device table (docs/Devices.md): ``arch`` names, aliases and PCI
device IDs, and what the table knows about each device."""

import re
from typing import Tuple

from . import _xpu_codegen
from ._types import CompileError, Device

_PCI_ID = re.compile(r"0[xX][0-9a-fA-F]{1,4}")


def _resolve_arch(arch) -> str:
    """A device name or alias unchanged; a PCI device ID (``"0x0bd5"``, as
    Level Zero and ``lspci`` report it) as the canonical name of its
    device."""
    if not isinstance(arch, str):
        raise TypeError(f"arch must be a str, got {type(arch).__name__}")
    if not _PCI_ID.fullmatch(arch.strip()):
        return arch
    pci = int(arch.strip(), 16)
    name = _xpu_codegen.lookup_pci_id(pci)
    if name is None:
        raise CompileError(f"error: unknown Intel GPU PCI device ID "
                           f"{pci:#06x}; valid archs: "
                           f"{_xpu_codegen.valid_archs()}, or the PCI ID of "
                           "one of them")
    return name


def device(arch) -> Device:
    """The device table entry of a name, alias or PCI device ID.

    Raises :class:`CompileError` for an unknown device, with the closest
    name when one is close ("did you mean").
    """
    name = _resolve_arch(arch)
    info = _xpu_codegen.device_info(name)
    if info is None:
        raise CompileError("error: " + _xpu_codegen.describe_unknown_arch(name))
    return Device(name=info["name"], family=info["family"],
                  grf_modes=tuple(info["grf_modes"]),
                  threads_per_eu=tuple(info["threads_per_eu"]),
                  eus_per_core=info["eus_per_core"],
                  max_work_group_size=info["max_work_group_size"],
                  sub_group_sizes=tuple(info["sub_group_sizes"]),
                  max_scratch_per_thread=info["max_scratch_per_thread"],
                  grf_counts=tuple(info["grf_counts"]),
                  threads_per_count=tuple(info["threads_per_count"]),
                  launch_threads_per_count=tuple(
                      info["launch_threads_per_count"]))


def _device_grf_modes(arch: str):
    """The GRF modes (register counts) of ``arch``; None when unknown (the
    compile then reports the unknown arch)."""
    info = _xpu_codegen.device_info(arch)
    return None if info is None else tuple(info["grf_modes"])


def _device_grf_counts(arch: str):
    """Every register count of ``arch`` (modes and variable counts); None
    when unknown."""
    info = _xpu_codegen.device_info(arch)
    return None if info is None else tuple(info["grf_counts"])


def valid_archs() -> Tuple[str, ...]:
    """Every accepted ``arch`` name and alias."""
    return tuple(n.strip() for n in _xpu_codegen.valid_archs().split(","))
