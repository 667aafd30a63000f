"""Bytes of an MLIR string literal as xpu-opt prints it (a gpu.binary's
SPIR-V or zebin): \\" and \\\\ are the characters, \\XX a hex byte."""


def unescape(text):
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\":
            nxt = text[i + 1]
            if nxt in '"\\':
                out.append(ord(nxt))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)
