#!/usr/bin/env python3
"""The register-pressure prediction against measurement, from grf_decision
results (bench.py's JSON): per kernel the estimate (live bytes per lane as a
percentage of the small budget, from the predict=true run's report), the
prediction, the measured spills and the measured-best mode; then the counts
that matter and the thresholds this data would fit.

* predicted small, small spills:  no wrong decision (measurement overrides,
  large is built too) but a second compile;
* predicted large, best is small: a wrong decision when large does not
  spill (kept without building small), else a second compile;
* uncertain: measured (2 compiles when small spills).

Usage: calibration.py RESULTS.json [RESULTS.json ...] [--kernels]
"""
import argparse
import json


def ratio(p):
    return 100.0 * p["live_bytes"] / p["small_budget"]


def summarize(path, show_kernels):
    with open(path) as f:
        result = json.load(f)
    modes = result["modes"]
    rows = []
    for k in result["kernels"]:
        p = k["predict"].get("pressure")
        if not p:
            continue
        rows.append((ratio(p), k, p))
    rows.sort(key=lambda r: (r[0], r[1]["name"]))
    print(f"== {result['arch']}, {result['compiler']}: "
          f"{len(rows)} kernels with an estimate")
    if show_kernels:
        print("| r | kernel | live B/lane | prediction | "
              + " | ".join(f"{m} spill" for m in modes)
              + " | best | kept (predict=true) | compiles |")
        print("|---|---|---|---|" + "---|" * len(modes) + "---|---|---|")
        for r, k, p in rows:
            print(f"| {r:.1f}% | {k['name']} | {p['live_bytes']} | "
                  f"{p['prediction']} | "
                  + " | ".join(str(k["spill"][m]) for m in modes)
                  + f" | {k['best']} | {k['predict']['mode']} | "
                  f"{k['predict']['compiles']} |")
    count = {}
    for r, k, p in rows:
        pred = p["prediction"]
        small_spills = k["spill"]["small"] > 0
        if pred == "small":
            key = "small, small spills (2nd compile)" if small_spills \
                else "small, right"
        elif pred == "large":
            if k["best"] == "small":
                key = ("large, best small: MISS" if k["predict"]["mode"] != "small"
                       else "large, best small: caught (2nd compile)")
            else:
                key = "large, right"
        else:
            key = "uncertain"
        count[key] = count.get(key, 0) + 1
    for key in sorted(count):
        print(f"  predicted {key}: {count[key]}")
    agree = sum(k["predict"]["mode"] == k["best"] for _, k, _ in rows)
    compiles = sum(k["predict"]["compiles"] for _, k, _ in rows)
    print(f"  predict=true agrees {agree}/{len(rows)}, "
          f"{compiles / max(len(rows), 1):.2f} compiles/kernel")
    # Thresholds this data fits, per element type and overall: small below
    # the lowest estimate whose small build spills; large above the highest
    # estimate whose best mode is small.
    for label, sel in [("all", lambda k: True),
                       ("f32", lambda k: k["type"] == "f32"),
                       ("f16", lambda k: k["type"] == "f16")]:
        sub = [(r, k) for r, k, _ in rows if sel(k)]
        spilling = [r for r, k in sub if k["spill"]["small"] > 0]
        best_small = [r for r, k in sub if k["best"] == "small"]
        lo = min(spilling) if spilling else None
        hi = max(best_small) if best_small else None
        print(f"  fit {label}: lowest r whose small build spills "
              f"{'-' if lo is None else f'{lo:.1f}%'}; highest r best in "
              f"small {'-' if hi is None else f'{hi:.1f}%'}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results", nargs="+")
    parser.add_argument("--kernels", action="store_true",
                        help="print the per-kernel table")
    args = parser.parse_args()
    for path in args.results:
        summarize(path, args.kernels)


if __name__ == "__main__":
    main()
