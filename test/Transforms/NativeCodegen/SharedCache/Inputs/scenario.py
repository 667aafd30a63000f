"""Scenarios of the shared cache tier, each against a private server (see
sharedcache.py). Usage: scenario.py NAME DIR. Prints what FileCheck checks;
exits 1 with FAILED: on a broken expectation."""

import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sharedcache import (FakeServer, KillingProxy, RedisServer, check,  # noqa
                         count_lines, make_input, make_worker_wrapper,
                         xpu_opt)

MODULES = ("nospill", "spill_small_only")


def setup(dir):
    shutil.rmtree(dir, ignore_errors=True)
    os.makedirs(dir)
    return make_input(os.path.join(dir, "in.mlir"), *MODULES)


def reference(dir, input):
    """The output without any cache."""
    run = xpu_opt(input, os.path.join(dir, "none"), name="reference",
                  extra="cache-dir=none")
    check(run.returncode == 0, "reference compile failed: " + run.stderr)
    return run


def tiers(report):
    """Where the hits of a report came from ("-": not a hit)."""
    return " ".join(sorted({m.get("cache_tier", "-")
                            for m in report["modules"]}))


def warm(dir):
    """Two machines: the second compiles nothing and starts no worker."""
    input = setup(dir)
    worker, log = make_worker_wrapper(dir)
    with RedisServer(os.path.join(dir, "redis")) as server:
        a = xpu_opt(input, os.path.join(dir, "a"), server.url, name="a",
                    worker=worker)
        check(a.returncode == 0, a.stderr)
        started = count_lines(log)
        print("machine a:", " ".join(a.cache_states()), "workers",
              "started" if started else "none")
        keys = server.keys()
        print("entries", sum(k.startswith("xpu-codegen:v1:entry:")
                             for k in keys),
              "identities", sum(k.startswith("xpu-codegen:v1:identity:")
                                for k in keys))
        # Machine b: empty local cache, the URL from the environment.
        b = xpu_opt(input, os.path.join(dir, "b"), name="b", worker=worker,
                    env={"XPU_CODEGEN_CACHE_URL": server.url})
        check(b.returncode == 0, b.stderr)
        print("machine b:", " ".join(b.cache_states()), "workers started",
              count_lines(log) - started)
        print("machine b tiers:", tiers(b.report))
        print("identical output:", a.output == b.output)
        print("warnings:", len(a.warnings()) + len(b.warnings()))
        # b copied what it took into its own cache: without the server it
        # still compiles nothing.
        server.kill()
    c = xpu_opt(input, os.path.join(dir, "b"), name="c", worker=worker,
                extra="cache-url=none")
    print("machine b again, no server:", " ".join(c.cache_states()),
          "workers started", count_lines(log) - started)
    print("machine b again tiers:", tiers(c.report))


def corrupt(dir):
    """Corrupt, foreign and truncated values are misses and overwritten."""
    input = setup(dir)
    with RedisServer(os.path.join(dir, "redis")) as server:
        a = xpu_opt(input, os.path.join(dir, "a"), server.url, name="a")
        check(a.returncode == 0, a.stderr)
        entries = server.keys("xpu-codegen:v1:entry:*")
        good = {k: server.command("GET", k) for k in entries}
        for i, mode in enumerate(("flip", "foreign", "truncate", "garbage")):
            for j, key in enumerate(entries):
                value = good[key]
                if mode == "flip":
                    value = value[:len(value) // 2] + \
                        bytes([value[len(value) // 2] ^ 1]) + \
                        value[len(value) // 2 + 1:]
                elif mode == "foreign":
                    # Another key's whole, valid entry.
                    value = good[entries[(j + 1) % len(entries)]]
                elif mode == "truncate":
                    value = value[:len(value) - 7]
                else:
                    value = b"garbage" * 3
                server.command("SET", key, value)
            run = xpu_opt(input, os.path.join(dir, f"m{i}"), server.url,
                          name=f"m{i}")
            check(run.returncode == 0, run.stderr)
            # Overwritten with valid entries: the next machine hits.
            after = xpu_opt(input, os.path.join(dir, f"n{i}"), server.url,
                            name=f"n{i}")
            print(f"{mode}:", " ".join(run.cache_states()),
                  "identical output:", run.output == a.output,
                  "then:", " ".join(after.cache_states()))


def killed(dir):
    """A server killed mid-run: the run finishes locally, warns once."""
    input = setup(dir)
    ref = reference(dir, input)
    with RedisServer(os.path.join(dir, "redis")) as server:
        # Cold: killed at the second store (the identity record went in).
        proxy = KillingProxy(server, "SET", 2)
        a = xpu_opt(input, os.path.join(dir, "a"), proxy.url, name="a")
        print("cold, killed at a store: exit", a.returncode,
              "identical output:", a.output == ref.output,
              "server dead:", server.process.poll() is not None)
        for w in a.warnings():
            print(w.split("warning: ", 1)[1])
    with RedisServer(os.path.join(dir, "redis2")) as server:
        a = xpu_opt(input, os.path.join(dir, "a2"), server.url, name="a2")
        check(a.returncode == 0, a.stderr)
        # Warm from the server: killed at the second lookup of a build.
        proxy = KillingProxy(server, "GET", 3)
        b = xpu_opt(input, os.path.join(dir, "b"), proxy.url, name="b")
        print("warm, killed at a lookup: exit", b.returncode,
              "identical output:", b.output == ref.output,
              "states:", " ".join(b.cache_states()))
        print("warnings:", len(b.warnings()))


def frozen(dir):
    """A server that accepts connections but never answers (SIGSTOP): every
    command times out; the run takes the local path after one timeout."""
    input = setup(dir)
    ref = reference(dir, input)
    with RedisServer(os.path.join(dir, "redis")) as server:
        server.process.send_signal(signal.SIGSTOP)
        a = xpu_opt(input, os.path.join(dir, "a"), server.url, name="a",
                    env={"XPU_CODEGEN_CACHE_TIMEOUT_MS": 500})
        print("frozen: exit", a.returncode, "identical output:",
              a.output == ref.output, "bounded:", a.seconds < ref.seconds + 30)
        for w in a.warnings():
            print(w.split("warning: ", 1)[1])
    # Nothing listens at all.
    from sharedcache import free_port
    port = free_port()
    b = xpu_opt(input, os.path.join(dir, "b"), f"redis://127.0.0.1:{port}",
                name="b")
    print("refused: exit", b.returncode, "identical output:",
          b.output == ref.output)
    for w in b.warnings():
        print(w.split("warning: ", 1)[1].replace(str(port), "PORT"))


def garbage(dir):
    """Servers that answer nonsense: never trusted, never a failed run."""
    input = setup(dir)
    ref = reference(dir, input)
    cases = {
        # Bytes that are not RESP at all.
        "noise": lambda args, n: b"\x00\xff garbage \x07" * 50,
        # An array where a string is expected.
        "array": lambda args, n: b"*2\r\n$1\r\na\r\n$1\r\nb\r\n",
        # A GET reply announcing 1 TB (must not be read), else OK.
        "huge": lambda args, n: (b"$1000000000000\r\n" if args[0] == b"GET"
                                 else b":0\r\n" if args[0] in (b"EXISTS",
                                                              b"EVAL")
                                 else b"+OK\r\n"),
        # Valid RESP, but the values are not entries; stores succeed.
        "foreign": lambda args, n: (b"$12\r\nnot an entry\r\n"
                                    if args[0] == b"GET" else
                                    b":0\r\n" if args[0] in (b"EXISTS",
                                                             b"EVAL")
                                    else b"+OK\r\n"),
        # A reply line without end.
        "endless": lambda args, n: b"+" + b"O" * 100000,
        # A bulk length that is no number.
        "badlength": lambda args, n: b"$12x4\r\nabc\r\n",
    }
    for name, respond in cases.items():
        fake = FakeServer(respond)
        run = xpu_opt(input, os.path.join(dir, name), fake.url, name=name,
                      env={"XPU_CODEGEN_CACHE_TIMEOUT_MS": 2000})
        sets = sum(1 for c in fake.commands if c[0] == "SET" and
                   c[1].startswith("xpu-codegen:v1:entry:"))
        fake.close()
        print(f"{name}: exit", run.returncode, "identical output:",
              run.output == ref.output, "states:",
              " ".join(run.cache_states()), "warnings:", len(run.warnings()),
              "entry stores:", sets)


def full(dir):
    """A full server (maxmemory, noeviction) refuses stores: one warning,
    the run is unaffected, and lookups still work."""
    input = setup(dir)
    ref = reference(dir, input)
    with RedisServer(os.path.join(dir, "redis"), "--maxmemory", "1",
                     "--maxmemory-policy", "noeviction") as server:
        a = xpu_opt(input, os.path.join(dir, "a"), server.url, name="a")
        print("full: exit", a.returncode, "identical output:",
              a.output == ref.output, "entries:",
              len(server.keys("xpu-codegen:v1:entry:*")))
        for w in a.warnings():
            print(w.split("warning: ", 1)[1].replace(str(server.port), "PORT"))


def concurrent(dir):
    """Processes with their own local caches compile the same kernels at
    once: no corrupt entry, the same output, and with single flight each
    build runs once in all of them together."""
    input = setup(dir)
    ref = reference(dir, input)
    builds = len(ref.cache_states())
    n = 4
    for lock_ms in (60000, 0):
        with RedisServer(os.path.join(dir, f"redis{lock_ms}")) as server:
            env = dict(os.environ)
            procs = []
            for i in range(n):
                tag = f"p{lock_ms}-{i}"
                procs.append(subprocess.Popen(
                    [sys.executable, "-c",
                     "import sys, json; sys.path.insert(0, sys.argv[1]);"
                     "from sharedcache import xpu_opt;"
                     "r = xpu_opt(sys.argv[2], sys.argv[3], sys.argv[4],"
                     " name=sys.argv[5], env={'XPU_CODEGEN_CACHE_LOCK_MS':"
                     " sys.argv[6]});"
                     "print(json.dumps([r.returncode, r.cache_states(),"
                     " r.output == open(sys.argv[7], 'rb').read()]))",
                     os.path.dirname(os.path.abspath(__file__)), input,
                     os.path.join(dir, tag), server.url, tag, str(lock_ms),
                     os.path.join(dir, "reference.mlir")],
                    stdout=subprocess.PIPE, text=True, env=env))
            import json
            results = [json.loads(p.communicate()[0]) for p in procs]
            ok = all(r[0] == 0 and r[2] for r in results)
            misses = sum(r[1].count("miss") for r in results)
            # Every value the server holds verifies: a new machine hits.
            check_run = xpu_opt(input, os.path.join(dir, f"check{lock_ms}"),
                                server.url, name=f"check{lock_ms}")
            label = "single flight" if lock_ms else "no locks"
            print(f"{label}: all ok and identical: {ok}; builds run: "
                  f"{'once each' if misses == builds else misses}; "
                  f"a new machine then: "
                  f"{' '.join(sorted(set(check_run.cache_states())))}")
            sys.stderr.write(f"{label}: {n} processes, {builds} builds, "
                             f"{misses} compiled\n")


def pipeline(dir):
    """The pipeline's two cache levels share the tier: a second machine
    takes every module from the module (pre-lowering) level of the server,
    lowers nothing and starts no worker."""
    shutil.rmtree(dir, ignore_errors=True)
    os.makedirs(dir)
    from sharedcache import SRC, child_env
    input = os.path.join(dir, "mix.mlir")
    with open(input, "w") as f:
        subprocess.run([sys.executable, os.path.join(
            SRC, "bench", "pipeline", "gen_inputs.py"), "mix", "--pointwise",
            "2", "--reductions", "1", "--heavy", "1"], stdout=f, check=True,
            env=child_env())
    worker, log = make_worker_wrapper(dir)
    with RedisServer(os.path.join(dir, "redis")) as server:
        runs = {}
        # "b-again": machine b's second run, from its own cache.
        for name in ("a", "b", "b-again"):
            report = os.path.join(dir, name + ".json")
            options = (f"arch=pvc backend=ocloc cache-dir={dir}/{name[0]} "
                       f"cache-url={server.url} report={report}")
            before = count_lines(log)
            p = subprocess.run(
                ["xpu-opt", input, f"--xpu-codegen-pipeline={options}", "-o",
                 os.path.join(dir, name + ".mlir")],
                env=child_env(XPU_CODEGEN_WORKER=worker),
                capture_output=True, text=True)
            check(p.returncode == 0, p.stderr)
            import json
            modules = json.load(open(report))["modules"]
            runs[name] = open(os.path.join(dir, name + ".mlir"), "rb").read()
            levels = sorted({f"{m.get('cache')}/{m.get('cache_level', '-')}"
                             f"/{m.get('cache_tier', '-')}"
                             for m in modules})
            print(f"machine {name.replace('-', ' ')}: {len(modules)} modules",
                  " ".join(levels), "workers started",
                  count_lines(log) - before, "warnings",
                  p.stderr.count("warning"))
        print("identical output:", runs["a"] == runs["b"])


def slow(dir):
    """A server that answers every command correctly but 4.5 s late, under
    the 5 s deadline (the reproducer's shape: the whole pipeline, 12
    modules): the run costs about the tier's budget, not 4.5 s a command,
    warns once and writes what a run without the server writes."""
    shutil.rmtree(dir, ignore_errors=True)
    os.makedirs(dir)
    from sharedcache import SRC, child_env
    input = os.path.join(dir, "mix.mlir")
    with open(input, "w") as f:
        subprocess.run([sys.executable, os.path.join(
            SRC, "bench", "pipeline", "gen_inputs.py"), "mix", "--pointwise",
            "8", "--reductions", "2", "--heavy", "2"], stdout=f, check=True,
            env=child_env())

    def run(name, url=None):
        out = os.path.join(dir, name + ".mlir")
        report = os.path.join(dir, name + ".json")
        options = f"arch=pvc link=false cache-dir={dir}/{name} report={report}"
        if url:
            options += f" cache-url={url}"
        start = time.time()
        p = subprocess.run(["xpu-opt", input,
                            f"--xpu-codegen-pipeline={options}", "-o", out],
                           env=child_env(XPU_CODEGEN_CACHE_BUDGET_MS=1000),
                           capture_output=True, text=True, timeout=900)
        check(p.returncode == 0, p.stderr)
        import json
        modules = json.load(open(report))["modules"]
        compiled = sum(1 for m in modules if not m.get("error"))
        return (time.time() - start, open(out, "rb").read(), compiled,
                [l for l in p.stderr.splitlines() if "warning:" in l])

    ref_seconds, ref_output, ref_compiled, _ = run("reference")

    def respond(args, count):
        time.sleep(4.5)
        if args[0] == b"GET":
            return b"$-1\r\n"
        return b":1\r\n" if args[0] in (b"EXISTS", b"EVAL") else b"+OK\r\n"

    fake = FakeServer(respond)
    seconds, output, compiled, warnings = run("slow", fake.url)
    fake.close()
    print("slow: identical output:", output == ref_output, "modules compiled:",
          compiled, "of", ref_compiled, "bounded:", seconds < ref_seconds + 30)
    for w in warnings:
        print(w.split("warning: ", 1)[1].replace(str(fake.port), "PORT"))
    sys.stderr.write(f"slow: {seconds:.1f} s with the server, "
                     f"{ref_seconds:.1f} s without\n")


if __name__ == "__main__":
    globals()[sys.argv[1]](sys.argv[2])
