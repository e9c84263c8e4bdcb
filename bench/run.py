"""`make bench`: speed of the dashboard on the sample data and on generated villages.

Prints a table and writes bench/results.json (git-ignored). Sections:

1. One parcel, live: ``analyze_parcel`` (deductions, slopes, triggers, permits) on parcels of about
   1, 10 and 100 acres at four places in the sample, layers and settings loaded first (not timed).
2. The naive way (bench/naive.py: geopandas.overlay with whole layers, the whole DEM read and masked)
   on the same parcels: time, ratio, and agreement of gross, each deduction row and net (0.1 % of gross).
3. The whole village: ``screen`` over every sample tax parcel, a 1,000-lot patch, 20,000 and 100,000
   generated lots, each in a child process (time, time per parcel, peak RSS); and the screen's rows
   against ``analyze()`` for every sample tax parcel (net within 0.1 % of gross, triggers, permits).
4. The app: rerun after a drawing, start to first page, resident memory (bench/app_bench.py), and the
   PDF printout (report_pdf_bytes) for five sample tax parcels, and a 40-lot plat checked by ``check_plan``
   against 40 separate parcel analyses of its lots (bench/plan_bench.py).
5. The Village's service (bench/load.py): nginx and two app processes as deploy/ runs them, on
   loopback; 1, 5, 10 and 20 concurrent sessions at the protocol level (first page, pick a tax parcel,
   read the net lot area): p50/p95, each process's CPU and memory; and beside it, in the same run, the
   same load on a trivial Streamlit page burning 0-50 ms of CPU a script run (bench/protocol_floor.py):
   how the 20:1 ratio grows with the server CPU a session, on this machine.

``--quick`` skips the 100,000-lot run and the full agreement pass (for trying the bench out).

At the end, every headline figure against the baseline kept in the repository (bench/baseline.py,
bench/baseline.json): its target, the baseline's value and the ratio; more than 25 % above the baseline is a
REGRESSION line, listed again last. ``--save-baseline`` (``make bench-baseline``) then writes this run's figures
as the new baseline.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402

import baseline  # noqa: E402
from naive import naive_lot_area  # noqa: E402
from parcels import PLACES, test_parcel  # noqa: E402

MANIFEST = ROOT / "data" / "sample" / "layers.yaml"
RESULTS = ROOT / "bench" / "results.json"
SIZES_ACRES = (1, 10, 100)
REPEATS = {1: 15, 10: 15, 100: 7}
FLAG = {True: "yes", False: "no", None: ""}


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split(":", 1)[1].strip()
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu_model": cpu, "memory": mem, "python": platform.python_version(),
            "platform": platform.platform(), "load_average_at_start": list(os.getloadavg()),
            "speed_probe_s": baseline.speed_probe_s()}


def _pct(xs, q):
    return float(np.percentile(np.asarray(xs), q))


def single_parcels(layerset, settings) -> tuple[dict, list[dict]]:
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.dem import DEM_READERS

    bounds = layerset.get("parcels").gdf.total_bounds
    by_size: dict = {}
    cases = []
    for acres in SIZES_ACRES:
        all_runs, all_cold = [], []
        for k, (place, frac) in enumerate(PLACES.items()):
            geom = test_parcel(bounds, frac, acres, seed=k)
            analyze_parcel(geom, layerset, settings=settings)  # warm (imports, parameter caches)
            runs = []
            for _ in range(REPEATS[acres]):
                t0 = time.perf_counter()
                analyze_parcel(geom, layerset, settings=settings)
                runs.append(time.perf_counter() - t0)
            all_runs += runs
            # Cold: the DEM closed before each run, so its blocks are read and decompressed again.
            cold = []
            for _ in range(3):
                DEM_READERS.close_all()
                t0 = time.perf_counter()
                analyze_parcel(geom, layerset, settings=settings)
                cold.append(time.perf_counter() - t0)
            all_cold += cold
            cases.append({"acres": acres, "place": place, "geom": geom,
                          "live_median_ms": 1000 * statistics.median(runs),
                          "live_cold_dem_median_ms": 1000 * statistics.median(cold)})
        by_size[acres] = {"median_ms": round(1000 * statistics.median(all_runs), 1),
                          "p95_ms": round(1000 * _pct(all_runs, 95), 1), "runs": len(all_runs),
                          "cold_dem_median_ms": round(1000 * statistics.median(all_cold), 1)}
    return by_size, cases


def naive_comparison(layerset, settings, cases) -> list[dict]:
    from sloat_core.engine.analysis import analyze_parcel

    out = []
    day = dt.date.today()  # both read the law of the day the bench runs
    for c in cases:
        t0 = time.perf_counter()
        naive = naive_lot_area(c["geom"], layerset, buffer_width_ft=float(settings.buffer_width_ft), on=day)
        naive_s = time.perf_counter() - t0
        live = analyze_parcel(c["geom"], layerset, settings=settings, as_of=day)
        gross = live.lot.gross_area_sqft
        diffs = {"gross": abs(gross - naive["gross_area_sqft"])}
        # A row the live analysis calls unknown (a layer that does not cover part of the parcel)
        # is not compared: the naive way knows nothing of coverage and reads such land as free. The net
        # is compared only when every row is known.
        unknown = [r.constraint for r in live.lot.rows if r.area_sqft is None and naive["rows"][r.constraint]]
        if not unknown:
            diffs["net"] = abs(live.lot.net_lot_area_sqft - naive["net_lot_area_sqft"])
        for r in live.lot.rows:
            a, b = r.area_sqft, naive["rows"][r.constraint]
            if r.constraint not in unknown:
                diffs[r.constraint] = 0.0 if a is None and b is None else abs((a or 0.0) - (b or 0.0))
        worst = max(diffs.values()) / gross
        out.append({"acres": c["acres"], "place": c["place"], "naive_ms": round(1000 * naive_s, 1),
                    "live_median_ms": round(c["live_median_ms"], 1),
                    "ratio": round(1000 * naive_s / c["live_median_ms"], 1),
                    "live_cold_dem_median_ms": round(c["live_cold_dem_median_ms"], 1),
                    "ratio_cold_dem": round(1000 * naive_s / c["live_cold_dem_median_ms"], 1),
                    "worst_difference_share_of_gross": float(f"{worst:.2e}"),
                    "agrees_within_0.1pct": bool(worst <= 1e-3), "unknown_rows_not_compared": unknown,
                    "uncovered_warnings": [w for w in live.to_dict()["warnings"] if "does not cover" in w][:1]})
    return out


def village_runs(specs) -> list[dict]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs:
            csv_path = Path(tmp) / "screen.csv"
            proc = subprocess.run([sys.executable, str(ROOT / "bench" / "village.py"), spec, str(csv_path),
                                   str(MANIFEST)], capture_output=True, text=True, timeout=900)
            if proc.returncode != 0:
                out.append({"spec": spec, "failed": proc.stderr[-1500:]})
                continue
            out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def report_times(layerset, settings, n: int = 5) -> dict:
    """The counter's printout: ``report_pdf_bytes`` for sample tax parcels (analysis not included)."""
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.parcels import parcel_by_sbl
    from sloat_core.outputs.report import report_pdf_bytes

    gdf = layerset.get("parcels").gdf
    sbls = [str(gdf[layerset.parcels_meta.id_field].iloc[i]) for i in np.linspace(0, len(gdf) - 1, n).astype(int)]
    runs, pages = [], []
    for sbl in sbls:
        a = analyze_parcel(parcel_by_sbl(layerset, sbl), layerset, settings=settings,
                           project={"application_type": "subdivision"})
        report_pdf_bytes(a, layerset)  # warm (fonts, matplotlib)
        t0 = time.perf_counter()
        pdf = report_pdf_bytes(a, layerset)
        runs.append(time.perf_counter() - t0)
        pages.append(pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages"))
    return {"parcels": len(sbls), "median_s": round(statistics.median(runs), 3), "max_s": round(max(runs), 3),
            "pages": sorted(set(pages))}


def screen_agreement(layerset, settings, limit: int | None) -> dict:
    """The fast screen's rows against analyze() for the sample tax parcels."""
    from sloat_core.engine.analysis import analyze
    from sloat_core.engine.screening import screen_rows

    gdf = layerset.get("parcels").gdf
    meta = layerset.parcels_meta
    idx = np.arange(len(gdf)) if limit is None else np.linspace(0, len(gdf) - 1, limit).astype(int)
    sub = gdf.iloc[idx]
    rows = list(screen_rows(layerset, settings, parcels=sub))
    worst, over, flag_mismatch, details = 0.0, 0, 0, []
    for row, i in zip(rows, idx):
        res = analyze(gdf.geometry.iloc[i], layerset, district=gdf[meta.district_field].iloc[i], settings=settings)
        gross = res["gross_area_sqft"]
        d = abs(float(row["net_lot_area_sqft"]) - res["net_lot_area_sqft"]) / gross
        worst = max(worst, d)
        flags_ok = ([row[f"trigger_{k}"] for k in range(1, 11)]
                    == [FLAG[t["triggered"]] for t in res["cluster_triggers"]])
        permits = {p["id"]: FLAG[p["required"]] for p in res["permits"]}
        flags_ok &= all(row[k] == permits[k[7:]] for k in row if k.startswith("permit_"))
        if d > 1e-3:
            over += 1
            # Does the single-parcel table give some land to two rows? (sum of rows > their union)
            from sloat_core.rules.deductions import lot_area
            from sloat_core.measure.parcel import parcel_findings

            import shapely

            lot = lot_area(parcel_findings(gdf.geometry.iloc[i], layerset,
                                           buffer_width_ft=float(settings.buffer_width_ft),
                                           on=dt.date.fromisoformat(res["as_of"])))
            pieces = [r.geometry for r in lot.rows if r.geometry is not None and not r.geometry.is_empty]
            double = sum(r.area_sqft or 0.0 for r in lot.rows) - (shapely.union_all(pieces).area if pieces else 0)
            details.append({"sbl": row["sbl"], "net_difference_share": round(d, 4),
                            "single_parcel_land_in_two_rows_sqft": round(double, 1)})
        if not flags_ok:
            flag_mismatch += 1
    return {"parcels_compared": len(rows), "worst_net_difference_share_of_gross": float(f"{worst:.2e}"),
            "parcels_over_0.1pct": over, "parcels_with_flag_mismatch": flag_mismatch, "over_details": details}


#: The village runs' figures with a target (bench/baseline.py's FIGURES), printed beside them.
_VILLAGE_TARGETS = {"sample": ("screen_sample_s",), "lots:100000": ("screen_100000_s", "screen_100000_peak_rss_mb")}


def _target(key: str) -> str:
    """``target <= 1.5 s``: a figure's target as bench/baseline.py declares it (the one place it is written)."""
    f = next(f for f in baseline.FIGURES if f.key == key)
    unit = {"s": " s", "ms": " ms", "MB": " MB"}.get(f.unit, f" {f.unit}")
    return f"target <= {f.target:g}{unit}" if f.target is not None else ""


def table(results: dict) -> str:
    lines = []
    m = results["machine"]
    lines.append(f"Machine: {m['nproc']} cores, {m['cpu_model']}, Python {m['python']}, "
                 f"load average at start {m['load_average_at_start'][0]:.1f}, "
                 f"speed probe {m.get('speed_probe_s', float('nan')):.3f} s (bench/baseline.py)")
    lines.append("")
    lines.append("1. One parcel, live (analyze_parcel; layers loaded)     median ms   p95 ms   target"
                 "   (DEM cold: median ms)")
    for acres, r in results["single_parcel"].items():
        target = _target(f"parcel_{int(acres)}ac_median_ms").removeprefix("target ").removesuffix(" ms")
        lines.append(f"   about {int(acres):>3} acres ({r['runs']} runs, 4 places)          "
                     f"{r['median_ms']:>9.1f} {r['p95_ms']:>8.1f}   {target:<6}   "
                     f"({r.get('cold_dem_median_ms', float('nan')):.1f})")
    lines.append("")
    lines.append("2. Naive (geopandas.overlay, whole DEM) vs live     naive ms  live ms  ratio  (DEM cold)  "
                 "agree (worst diff/gross)")
    for r in results["naive_vs_live"]:
        lines.append(f"   {r['acres']:>3} ac  {r['place']:<28} {r['naive_ms']:>8.0f} {r['live_median_ms']:>8.1f} "
                     f"{r['ratio']:>6.1f}x  ({r.get('ratio_cold_dem', float('nan')):>6.1f}x)  "
                     f"{'yes' if r['agrees_within_0.1pct'] else 'NO '} "
                     f"({r['worst_difference_share_of_gross']:.1e})"
                     + (f"; unknown, not compared: {', '.join(r['unknown_rows_not_compared'])} (part of the parcel "
                        "lies outside the sample layers' area)" if r.get("unknown_rows_not_compared") else ""))
    lines.append("")
    lines.append("3. Whole village (screen, child process)      parcels   seconds  ms/parcel  peak RSS MB (pool worker)")
    for r in results["village"]:
        if "failed" in r:
            lines.append(f"   {r['spec']:<40} FAILED")
            continue
        targets = "; ".join(_target(k) for k in _VILLAGE_TARGETS.get(r["spec"], ()))
        lines.append(f"   {r['spec']:<40} {r['parcels']:>8} {r['seconds']:>9.2f} {r['ms_per_parcel']:>10.3f}  "
                     f"{r['peak_rss_mb']:>7.0f} ({r['peak_rss_mb_pool_worker']:.0f})  errors {r['rows_with_error']}"
                     + (f"   {targets}" if targets else ""))
    s = results.get("scaling")
    if s:
        lines.append(f"   ms/parcel at 100,000 / at 1,000: {s['ratio']:.2f} (target <= 2)")
    a = results.get("screen_vs_analyze")
    if a:
        lines.append(f"   screen vs analyze(): {a['parcels_compared']} tax parcels, worst net difference "
                     f"{a['worst_net_difference_share_of_gross']:.1e} of gross, {a['parcels_over_0.1pct']} over 0.1 %, "
                     f"{a['parcels_with_flag_mismatch']} with a trigger/permit mismatch")
        for d in a["over_details"]:
            lines.append(f"     {d['sbl']}: net differs by {d['net_difference_share']:.2%} of gross; the "
                         f"single-parcel table gives {d['single_parcel_land_in_two_rows_sqft']:,.0f} sq ft to two rows")
    lines.append("")
    app = results.get("app", {})
    lines.append("4. App")
    if not app:
        lines.append("   skipped (--skip-app)")
    elif "error" in app:
        lines.append(f"   {app['error']}")
    else:
        rr, srv = app.get("reruns", {}), app.get("server", {})
        lines.append(f"   rerun after a new drawing (AppTest, median of {rr.get('reruns')}): "
                     f"{rr.get('rerun_new_drawing_median_ms')} ms (max {rr.get('rerun_new_drawing_max_ms')}); "
                     f"same drawing again (cached): {rr.get('rerun_same_drawing_median_ms')} ms   "
                     f"{_target('app_rerun_new_drawing_ms')}")
        lines.append(f"   first AppTest run in a fresh process: {app.get('first_run_s', float('nan')):.2f} s (compiled "
                     f"modules cached, as make test runs; compiling them: "
                     f"{app.get('first_run_compiling_s', float('nan')):.2f} s)   {_target('app_first_apptest_run_s')}")
        lines.append(f"   make run (tools/serve.py): URL reported (healthy) {srv.get('health_s')} s after start; "
                     f"first page with its map drawn in chromium {srv.get('browser_page_load_s', srv.get('browser'))}"
                     f" s after opening the URL   {_target('app_make_run_first_page_s')}")
        lines.append(f"   server RSS after the first page: {srv.get('rss_mb_after_first_page')} MB   "
                     f"{_target('app_server_rss_after_page_mb')} (no higher than before the speed-ups)")
        mp = srv.get("map_payload") or {}
        if "total_bytes" in mp:
            lines.append(f"   the first page's map payload: {mp['total_bytes']:,} bytes = the map component's element "
                         f"{mp['element_bytes']:,} (of which the base map's HTML and script {mp['base_map_bytes']:,}, "
                         f"the feature groups' scripts {mp['feature_group_bytes']:,}) + {mp['linked_files']} "
                         f"linked layer files {mp['linked_bytes']:,}")
        elif mp:
            lines.append(f"   the first page's map payload: {mp}")
        br = app.get("browser", {})
        first, drawn = br.get("first_map_drawn_s"), br.get("drawing_to_figures_s")
        if first and drawn:
            lines.append(f"   browser, warm server: first map drawn {first['median']} s median (max {first['max']}, "
                         f"{first['n']} pages)   {_target('browser_first_map_drawn_s')}")
            lines.append(f"   browser: drawing a parcel to updated figures {drawn['median']} s median (max "
                         f"{drawn['max']}, {drawn['n']} drawings)   {_target('browser_drawing_to_figures_s')}")
            found, switch = br.get("address_to_answer_s"), br.get("page_switch_with_parcel_s")
            if found and switch:
                lines.append(f"   browser: a found address to the answer on screen {found['median']} s median (max "
                             f"{found['max']}, {found['n']} searches)   {_target('browser_address_to_answer_s')}")
                lines.append(f"   browser: page switch with a parcel chosen {switch['median']} s median (max "
                             f"{switch['max']}, {switch['n']} switches)   {_target('browser_page_switch_s')}")
        elif br:
            lines.append(f"   browser: {br}")
    rep = results.get("report_pdf")
    if rep:
        lines.append(f"   PDF report (report_pdf_bytes, {rep['parcels']} sample tax parcels, analysis not counted): "
                     f"median {rep['median_s']} s, max {rep['max_s']} s; pages {rep['pages']}")
    pc = results.get("plan_commands")
    if pc:
        lines.append(f"   plan: a {pc['lots']}-lot plat on the sample, `python -m sloat_core plan` (one command) "
                     f"{pc['plan_command_s']} s against `analyze` on each lot ({pc['lots']} commands) "
                     f"{pc['analyze_commands_s']} s: {pc['times_faster']}x faster   target at least 10x")
    pl = results.get("plan")
    if pl:
        lines.append(f"   plan: the same plat in one warm process (check_plan) {pl['plan_s']} s against "
                     f"{pl['lots']} warm parcel analyses {pl['separate_analyses_s']} s: {pl['times_faster']}x faster"
                     f"   {_target('plan_40_lots_s')}")
    lo = results.get("load")
    if lo:
        lines.append("")
        lines.append("5. The Village's service: sessions through nginx (bench/load.py)")
        if "error" in lo:
            lines.append(f"   {lo['error']}")
        else:
            import load

            lines.append(load.table(lo))
    floor = results.get("protocol_floor")
    if floor:
        import protocol_floor

        lines.append("")
        lines.append(protocol_floor.table(floor) if isinstance(floor, list) else f"   {floor['error']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the 100,000-lot run and the full agreement pass")
    ap.add_argument("--skip-app", action="store_true", help="skip the app timings")
    ap.add_argument("--skip-load", action="store_true", help="skip the sessions through nginx (bench/load.py)")
    ap.add_argument("--save-baseline", action="store_true",
                    help="write this run's figures as the new baseline (bench/baseline.json) after the comparison")
    ap.add_argument("--baseline-note", default=None, help="a sentence kept in the new baseline (how it was taken)")
    ap.add_argument("--baseline", type=Path, default=baseline.BASELINE, help="the baseline file (bench/baseline.json)")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    from sloat_core.gis.layers import load_manifest
    from sloat_core.law.settings import load_settings

    results: dict = {"machine": machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                     "options": {"quick": args.quick, "skip_app": args.skip_app, "skip_load": args.skip_load}}
    t0 = time.perf_counter()
    layerset = load_manifest(MANIFEST)
    settings = load_settings()
    results["layers_load_s"] = round(time.perf_counter() - t0, 3)

    print("1/4 one parcel, live ...", flush=True)
    by_size, cases = single_parcels(layerset, settings)
    results["single_parcel"] = {str(k): v for k, v in by_size.items()}
    print("2/4 the naive way ...", flush=True)
    results["naive_vs_live"] = naive_comparison(layerset, settings, cases)
    print("3/4 the whole village ...", flush=True)
    specs = ["sample", "patch:100000:1000", "lots:20000"] + ([] if args.quick else ["lots:100000"])
    results["village"] = village_runs(specs)
    per = {r["spec"]: r for r in results["village"] if "failed" not in r}
    if "lots:100000" in per and "patch:100000:1000" in per:
        results["scaling"] = {"ratio": round(per["lots:100000"]["ms_per_parcel"]
                                             / per["patch:100000:1000"]["ms_per_parcel"], 3)}
    results["screen_vs_analyze"] = screen_agreement(layerset, settings, 120 if args.quick else None)
    results["report_pdf"] = report_times(layerset, settings)
    import plan_bench

    results["plan"] = plan_bench.plan_vs_parcels(layerset, settings)
    if not args.quick:  # 41 new processes, each reading the layer set: about a minute and a half
        results["plan_commands"] = plan_bench.plan_vs_commands(layerset, str(MANIFEST))
    if not args.skip_app:
        print("4/4 the app ...", flush=True)
        import app_bench

        try:
            results["app"] = {"reruns": app_bench.rerun_times(), "first_run_s": round(app_bench.first_run_seconds(), 3),
                              "first_run_compiling_s": round(app_bench.first_run_seconds(bytecode=False), 3),
                              "server": app_bench.server_start_and_rss(), "browser": app_bench.browser_timings()}
        except Exception as exc:  # noqa: BLE001 - a bench section failing is reported, not fatal
            results["app"] = {"error": f"{type(exc).__name__}: {exc}"}
    if not args.skip_load:
        print("5. sessions through nginx and two app processes ...", flush=True)
        import load

        try:
            results["load"] = load.load_levels()
        except Exception as exc:  # noqa: BLE001 - a bench section failing is reported, not fatal
            results["load"] = {"error": f"{type(exc).__name__}: {exc}"}
        import protocol_floor

        try:
            results["protocol_floor"] = [protocol_floor.measure(b) for b in protocol_floor.BURNS_MS]
        except Exception as exc:  # noqa: BLE001 - a bench section failing is reported, not fatal
            results["protocol_floor"] = {"error": f"{type(exc).__name__}: {exc}"}
    results["bench_total_s"] = round(time.perf_counter() - t_start, 1)
    results["machine"]["speed_probe_end_s"] = baseline.speed_probe_s()
    RESULTS.write_text(json.dumps(results, indent=1, default=str))
    print()
    print(table(results))
    print(f"\nTotal {results['bench_total_s']} s. Results: {RESULTS.relative_to(ROOT)}. Speed probe at the end "
          f"{results['machine']['speed_probe_end_s']:.3f} s (at the start {results['machine']['speed_probe_s']:.3f} s).")
    old = baseline.load_baseline(args.baseline)
    print()
    print(baseline.format_comparison(baseline.compare(results, old), old, _shown(args.baseline)))
    if args.save_baseline:
        baseline.save_baseline(results, args.baseline, note=args.baseline_note)
        print(f"\nThe new baseline: {_shown(args.baseline)} (commit it).")
    return 0


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
