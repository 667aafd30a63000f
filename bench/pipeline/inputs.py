"""The benchmark's inputs (gen_inputs.py) written into the output
directory."""
import os

import gen_inputs


def write_inputs(out, quick):
    if quick:
        specs = gen_inputs.mix(1, 1, 1)
        n_renamed, n_unique = 4, 2
    else:
        specs = gen_inputs.mix()
        n_renamed, n_unique = 1000, 50
    mix = gen_inputs.mix_modules(specs)
    renamed = gen_inputs.renamed_modules(specs, n_renamed, n_unique)
    paths = {}
    for tag, mods in (("mix", mix), ("renamed", renamed)):
        paths[tag] = os.path.join(out, f"{tag}.mlir")
        with open(paths[tag], "w") as f:
            f.write(gen_inputs.document([m[3] for m in mods]))
    kinds = {}
    for _, kind, _, _ in mix:
        kinds[kind] = kinds.get(kind, 0) + 1
    return paths, mix, renamed, kinds


def module_texts(mods):
    """{module: a document holding only that module}."""
    return {n: gen_inputs.document([t]) for n, _, _, t in mods}
