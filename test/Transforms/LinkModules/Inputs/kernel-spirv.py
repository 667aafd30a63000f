"""Prints one kernel of a gpu.binary's SPIR-V, result ids normalized.

Usage: kernel-spirv.py FILE.mlir BINARY KERNEL

Reads the first SPIR-V object of `gpu.binary @BINARY` (xpu-emit-spirv's
output), disassembles it with spirv-dis --raw-id and prints what the kernel
is made of: the module's capabilities, extensions, imports and memory
model; the kernel's OpEntryPoint and OpExecutionModes; the types, constants
and variables it uses (transitively, in module order); its function; and
the OpName and OpDecorate of every id it defines or uses (sorted). Ids are
renumbered in order of first appearance, so the same kernel prints the same
text whether its module holds other kernels or not.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "Inputs"))
from mlir_strings import unescape  # noqa: E402

BINARY = r'gpu\.binary @{} .*?assembly = "((?:[^"\\]|\\.)*)"'
ID = re.compile(r"%(\d+)")
HEADER_OPS = {"OpCapability", "OpExtension", "OpExtInstImport",
              "OpMemoryModel"}
ANNOTATION_OPS = {"OpName", "OpMemberName", "OpDecorate", "OpMemberDecorate",
                  "OpDecorateString", "OpDecorateId"}


def disassemble(path, binary):
    match = re.search(BINARY.format(re.escape(binary)), open(path).read())
    if not match:
        sys.exit(f"{path}: no gpu.binary @{binary} with a SPIR-V object")
    with tempfile.NamedTemporaryFile(suffix=".spv") as spv:
        spv.write(unescape(match.group(1)))
        spv.flush()
        return subprocess.run(
            ["spirv-dis", "--raw-id", "--no-header", "--no-color", spv.name],
            check=True, capture_output=True, text=True).stdout.splitlines()


def parse(line):
    """(result id or None, opcode, ids used) of one instruction."""
    line = line.strip()
    result = None
    if "=" in line.split('"')[0]:
        lhs, line = line.split("=", 1)
        result = lhs.strip()[1:]
        line = line.strip()
    opcode = line.split()[0]
    # Ids in string literals (names) are not references.
    uses = ID.findall(re.sub(r'"(?:[^"\\]|\\.)*"', '""', line))
    return result, opcode, uses, line


def main():
    path, binary, kernel = sys.argv[1:4]
    insts = [parse(l) for l in disassemble(path, binary) if l.strip()]
    entry = [i for i in insts if i[1] == "OpEntryPoint" and f'"{kernel}"' in i[3]]
    if len(entry) != 1:
        sys.exit(f"{path}: @{binary} has no entry point named {kernel}")
    func = entry[0][2][0]

    # The function: from its OpFunction to the next OpFunctionEnd.
    start = next(n for n, i in enumerate(insts)
                 if i[1] == "OpFunction" and i[0] == func)
    end = next(n for n in range(start, len(insts))
               if insts[n][1] == "OpFunctionEnd")
    body = insts[start:end + 1]
    local = {i[0] for i in body if i[0]}

    # Module-level definitions it uses, transitively.
    definitions = {i[0]: i for i in insts[:start] if i[0]}
    used, work = set(), [u for i in body for u in i[2]] + entry[0][2]
    while work:
        ident = work.pop()
        if ident in used or ident in local or ident not in definitions:
            continue
        used.add(ident)
        work.extend(definitions[ident][2])
    wanted = used | local | {func}

    def text(i):
        return f"%{i[0]} = {i[3]}" if i[0] else i[3]

    out = [text(i) for i in insts if i[1] in HEADER_OPS]
    out += [text(entry[0])]
    out += [text(i) for i in insts
            if i[1] == "OpExecutionMode" and i[2][0] == func]
    out += [text(i) for i in insts[:start]
            if i[0] in used and i[1] not in HEADER_OPS]
    out += [text(i) for i in body]
    annotations = [text(i) for i in insts
                   if i[1] in ANNOTATION_OPS and i[2][0] in wanted]

    numbers = {}

    def renumber(match):
        return "%" + str(numbers.setdefault(match.group(1), len(numbers) + 1))

    def normalize(line):
        # Not inside string literals (names).
        parts = re.split(r'("(?:[^"\\]|\\.)*")', line)
        return "".join(p if p.startswith('"') else ID.sub(renumber, p)
                       for p in parts)

    for line in out:
        print(normalize(line))
    # Names and decorations last, sorted: their order in a module means
    # nothing, and a linked module lists those of all its kernels together.
    for line in sorted(normalize(line) for line in annotations):
        print(line)


if __name__ == "__main__":
    main()
