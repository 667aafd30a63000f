"""Results as data: the MLIR binding reads what the pass collected (no
temporary report file) and Python reads it under the extension's keys."""

import xpu_codegen
from xpu_codegen import _xpu_codegen
from xpu_codegen._native import _compile_mlir
from xpu_codegen._options import check_compile_options
from conftest import ELF_MAGIC, EXAMPLES


def test_fields_are_the_report_keys():
    fields = _xpu_codegen.fields
    assert (fields.SPILL_SIZE, fields.N_REGS, fields.GRF_MODE,
            fields.KERNELS, fields.DEDUPLICATED_FROM) == (
        "spill_size", "n_regs", "grf_mode", "kernels", "deduplicated_from")


def test_mlir_entries_come_as_data(no_cache):
    # The binding once handed the pass a temporary report file and returned
    # each entry as JSON text for Python to parse; now it prints the results
    # the pass collected straight into dicts.
    text = (EXAMPLES / "accumulate_spill_small_only.mlir").read_bytes()
    options, _ = check_compile_options(dict(arch="pvc", cache_dir="none"))
    outcome = _compile_mlir(text, "k.mlir", options)
    assert outcome["success"], outcome["diagnostics"]
    [module] = outcome["modules"]
    entry = module["entry"]
    assert isinstance(entry, dict)
    assert (entry["module"], entry["grf_mode"], entry["spill_size"]) == (
        "spill_small_only", "large", 0)
    assert module["binary"][:4] == ELF_MAGIC


def test_report_of_mlir_modules_keeps_its_format(no_cache):
    text = (EXAMPLES / "accumulate_spill_small_only.mlir").read_text()
    [module] = xpu_codegen.compile(text, arch="pvc", **no_cache)
    report = xpu_codegen.report([module])
    assert list(report) == ["version", "modules"]
    [entry] = report["modules"]
    # Keys sorted, as the pass's report prints them.
    assert list(entry) == sorted(entry)
    assert [list(k) for k in entry["kernels"]] == [
        sorted(k) for k in entry["kernels"]]
    assert (entry["grf_mode"], entry["n_regs"]) == ("large", 256)
