#!/usr/bin/env python3
"""Shared cache tier benchmark: two "machines" (two local cache directories)
share one private redis-server on the Inductor-like mix of
bench/pipeline/gen_inputs.py.

Runs of xpu-opt --xpu-codegen-pipeline="arch=pvc grf-mode=auto backend=ocloc
link=false jobs=2 cache-dir=<machine> cache-url=<server>" (a worker wrapper
counts the compiler workers each run starts; the report counts compiled
builds; link=false keeps one build per module, so the counts compare
across runs one to one):

  local only, cold   machine 0, cache-url=none (the reference)
  shared, cold       machine A, empty server: compiles and fills both tiers
  shared, warm       machine B, empty local cache, the server A filled
  local, warm        machine B again (its own cache now)
  2 at once, locks   machines C and D cold at once on a new server, single
                     flight (XPU_CODEGEN_CACHE_LOCK_MS=60000)
  2 at once, none    the same without locks (XPU_CODEGEN_CACHE_LOCK_MS=0)
  team, cold         machine T fills a server with ACL users and TLS as the
                     writer, signing every entry (Ed25519)
  warm, plain/team   alternately, a machine with an empty local cache warm
                     from a plain server and one warm from the team server
                     as the reader over TLS, checking signatures; medians
                     of 15 (1 with --quick) and their ratio (at most 1.10),
                     and the medians of xpu-opt's CPU time

Every run's output must equal the reference's. Usage:
  bench.py BUILD_DIR [--quick] [--out DIR]
Prints a Markdown table (bench/README.md has one) and writes
OUT/results.json.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "Transforms", "NativeCodegen",
                                "SharedCache", "Inputs"))
from sharedcache import (RedisServer, child_env, count_lines,  # noqa: E402
                         make_worker_wrapper)
from team import TeamServer, make_pki, security_env  # noqa: E402


def run(build, input, out, name, machine, url, worker_dir, env=None):
    """Starts one pipeline run; returns (process, finish())."""
    # $XPU_CODEGEN_WORKER: the release worker serving a sanitized build.
    worker, log = make_worker_wrapper(
        worker_dir, os.environ.get("XPU_CODEGEN_WORKER") or
        os.path.join(build, "bin", "xpu-compile-worker"))
    report = os.path.join(out, name + ".json")
    options = (f"arch=pvc grf-mode=auto backend=ocloc link=false jobs=2 "
               f"cache-dir={machine} cache-url={url} report={report}")
    e = child_env(XPU_CODEGEN_WORKER=worker, **(env or {}))
    before = count_lines(log)
    start = time.time()
    p = subprocess.Popen([os.path.join(build, "bin", "xpu-opt"), input,
                          f"--xpu-codegen-pipeline={options}", "-o",
                          os.path.join(out, name + ".mlir")],
                         env=e, stderr=subprocess.PIPE, text=True)

    def finish():
        stderr = p.communicate()[1]
        wall = time.time() - start
        if p.returncode != 0:
            sys.exit(f"{name} failed:\n{stderr}")
        rep = json.load(open(report))
        attempts = [a for m in rep["modules"] for a in m.get("attempts", [])]
        return dict(
            # Unrounded: warm runs take ~0.1 s, and the team/plain ratio
            # must not carry a rounding error of up to 5%.
            name=name, wall_s=wall,
            builds=len(attempts),
            compiled=sum(a["cache"] == "miss" and not a.get("reused")
                         for a in attempts),
            igc_s=round(sum(a.get("compile_ms", 0) for a in attempts) / 1000,
                        2),
            workers=count_lines(log) - before,
            warnings=[l for l in stderr.splitlines() if "warning" in l],
            output=open(os.path.join(out, name + ".mlir"), "rb").read())
    return p, finish


def team_cache(build, input, out, machine, workers, results, repeats):
    """The team cache (ACL users, TLS, signed entries) against a plain
    server: a cold fill, then warm machines from each, alternating.
    Returns the ratio of the median warm wall times (team / plain)."""
    pki = make_pki(os.path.join(out, "pki"))
    with RedisServer(os.path.join(out, "redis-plain")) as plain, \
            TeamServer(os.path.join(out, "redis-team"), pki) as team:
        run(build, input, out, "plain-cold", machine("P"), plain.url,
            workers)[1]()
        results.append(("team: TLS, ACL user, signing, cold (machine T)",
                        run(build, input, out, "team-cold", machine("T"),
                            team.url("writer"), workers,
                            security_env(pki, "writer", sign="team"))[1]()))
        warm = {"plain": [], "team": []}
        clients = {"plain": (plain.url, {}),
                   "team": (team.url("reader"),
                            security_env(pki, "reader", trust="team"))}
        for i in range(repeats):
            for kind, (url, env) in clients.items():
                # Warm runs start no worker: the children's CPU time is
                # xpu-opt's alone.
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                result = run(build, input, out, f"{kind}-warm-{i}",
                             machine(f"{kind}{i}"), url, workers, env)[1]()
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                result["cpu_s"] = (after.ru_utime + after.ru_stime -
                                   before.ru_utime - before.ru_stime)
                warm[kind].append(result)
    median = {k: sorted(v, key=lambda r: r["wall_s"])[len(v) // 2]
              for k, v in warm.items()}
    results.append((f"shared, warm, plain server (median of {repeats})",
                    median["plain"]))
    results.append((f"team: shared, warm, TLS + ACL reader + signatures "
                    f"checked (median of {repeats})", median["team"]))
    cpu = {k: statistics.median(r["cpu_s"] for r in v)
           for k, v in warm.items()}
    return (median["team"]["wall_s"] / max(median["plain"]["wall_s"], 0.01),
            cpu)


def concurrent_pairs(build, input, out, machine, workers):
    """Two machines compiling at once against one server, with and without
    build locks: one result each (their sums)."""
    results = []
    for lock_ms, label in ((60000, "locks"), (0, "no locks")):
        with RedisServer(os.path.join(out, f"redis-{lock_ms}")) as server:
            env = {"XPU_CODEGEN_CACHE_LOCK_MS": lock_ms}
            start = time.time()
            runs = [run(build, input, out, f"pair-{lock_ms}-{m}", machine(
                f"{m}{lock_ms}"), server.url, workers, env) for m in "CD"]
            done = [finish() for _, finish in runs]
            wall = time.time() - start
            both = dict(name=f"pair-{lock_ms}", wall_s=round(wall, 2),
                        builds=sum(d["builds"] for d in done),
                        compiled=sum(d["compiled"] for d in done),
                        igc_s=round(sum(d["igc_s"] for d in done), 2),
                        workers=sum(d["workers"] for d in done),
                        warnings=sum((d["warnings"] for d in done), []),
                        output=done[0]["output"]
                        if done[0]["output"] == done[1]["output"] else b"")
            results.append((f"2 machines at once, {label} (sum)", both))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--quick", action="store_true",
                        help="3 modules (the smoke test)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    out = os.path.abspath(args.out or os.path.join(build, "bench",
                                                   "shared_cache"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    gen = [sys.executable, os.path.join(ROOT, "bench", "pipeline",
                                        "gen_inputs.py"), "mix"]
    if args.quick:
        gen += ["--pointwise", "2", "--reductions", "1", "--heavy", "0"]
    input = os.path.join(out, "mix.mlir")
    with open(input, "w") as f:
        subprocess.run(gen, stdout=f, check=True)
    modules = open(input).read().count("gpu.module @")
    machine = lambda n: os.path.join(out, "machine-" + n)  # noqa: E731
    workers = os.path.join(out, "workers")
    os.makedirs(workers)

    results = []
    with RedisServer(os.path.join(out, "redis")) as server:
        ref = run(build, input, out, "local-cold", machine("0"), "none",
                  workers)[1]()
        results.append(("local only, cold", ref))
        results.append(("shared, cold (machine A)",
                        run(build, input, out, "shared-cold", machine("A"),
                            server.url, workers)[1]()))
        results.append(("shared, warm (machine B, empty local cache)",
                        run(build, input, out, "shared-warm", machine("B"),
                            server.url, workers)[1]()))
        results.append(("local, warm (machine B again)",
                        run(build, input, out, "local-warm", machine("B"),
                            server.url, workers)[1]()))
        memory = server.command("INFO", "memory").decode()
        used = next(l.split(":")[1] for l in memory.splitlines()
                    if l.startswith("used_memory_human:"))
        keys = len(server.keys())
    results += concurrent_pairs(build, input, out, machine, workers)

    ratio, cpu = team_cache(build, input, out, machine, workers, results,
                            1 if args.quick else 15)

    same = all(r["output"] == ref["output"] for _, r in results)
    print(f"{modules} modules, {ref['builds']} builds per machine; "
          f"server after one machine: {keys} keys, {used} used; "
          f"outputs identical: {same}")
    print()
    print("| run | wall s | builds compiled | IGC s | workers started |")
    print("|---|---|---|---|---|")
    for label, r in results:
        print(f"| {label} | {r['wall_s']:.2f} | {r['compiled']} of "
              f"{r['builds']} | {r['igc_s']:.1f} | {r['workers']} |")
    print(f"\nteam warm / plain warm: {ratio:.2f} (at most 1.10: "
          f"{ratio <= 1.10}); CPU time (median) {cpu['team']:.3f} s / "
          f"{cpu['plain']:.3f} s = {cpu['team'] / max(cpu['plain'], 1e-3):.2f}")
    warnings = sum((r["warnings"] for _, r in results), [])
    if warnings:
        print("\nwarnings:\n" + "\n".join(warnings))
    for _, r in results:
        del r["output"]
    json.dump(dict(modules=modules, keys=keys, used=used, identical=same,
                   team_warm_ratio=round(ratio, 3),
                   team_warm_cpu_s={k: round(v, 3) for k, v in cpu.items()},
                   runs=[dict(label=l, **r) for l, r in results]),
              open(os.path.join(out, "results.json"), "w"), indent=1)
    if not same or warnings:
        sys.exit(1)


if __name__ == "__main__":
    main()
