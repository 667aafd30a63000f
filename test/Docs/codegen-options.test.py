"""Prints docs/CodegenOptions.md from the native option list
(CodegenOptions.def, as the Python package reads it)."""

import xpu_codegen._xpu_codegen as native

ROLES = {
    "keyed": "key",
    "location": "location",
    "speed": "speed",
}

print("""<!-- Generated from include/XPUCodegen/Compiler/Codegen/CodegenOptions.def
     by test/Docs/codegen-options.test.py; test/Docs/codegen-options.test
     keeps it identical:
       PYTHONPATH=build/python_packages python3 test/Docs/codegen-options.test.py > docs/CodegenOptions.md -->

# Compile options

Every option of `xpu-codegen-pipeline`, declared once in
`include/XPUCodegen/Compiler/Codegen/CodegenOptions.def`. Every pass that
shares options with the pipeline takes the ones it reads from the same list
(`xpu-link-modules` under its own names: `max-kernels` for
`link-max-kernels`, `alone-above` for `link-alone-above`), the Python
package's `compile()` takes them as keywords (`timeout_ms` for
`timeout-ms`; `validate` for `validate-spirv`) and `python3 -m xpu_codegen
compile` as flags, with the accepted values listed here.

Role: **key**: decides what a module compiles to, so it is part of the
module cache's key (docs/Caching.md); **location**: where inputs and
results are (the compiler's identity, not its place, is in the key);
**speed**: how fast results come.

| Option | Default | Role | Values | Description |
| --- | --- | --- | --- | --- |""")
for option in native.codegen_options():
    default = option["default"]
    if isinstance(default, bool):
        default = "true" if default else "false"
    default = f"`{default}`" if default != "" else "(none)"
    values = ", ".join(f"`{value}`" for value in option["values"]) or "any"
    description = option["description"].replace("|", "\\|")
    print(f"| `{option['option']}` | {default} | {ROLES[option['role']]} | "
          f"{values} | {description} |")
