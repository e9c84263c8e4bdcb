"""The bench's figures against the last baseline kept in the repository (``bench/baseline.json``).

``make bench`` prints, after its sections, every headline figure beside its target, the baseline's value and
the ratio of the two (this run / the baseline). Every figure here is one where more is worse: a time, a peak
resident memory, a payload in bytes. A figure more than 25 % above its baseline (ratio > 1.25) is printed on a
line that begins ``REGRESSION`` and listed again at the very end of the output, so a slowdown is seen the day it
happens. A figure the baseline does not hold is ``new``; one the baseline holds that this run did not measure
(a section skipped or failed, ``--quick``) is ``not measured``. The baseline records the machine (CPU model,
cores) and when it was taken; when this run's machine differs, the comparison says so first, since the ratios
then compare machines as much as code. The same machine is not always as fast: a virtual machine's speed can change
by a third within the hour (bench/README.md, session 25). Each run times a fixed piece of pure Python
(:func:`speed_probe_s`) at its start and again at its end (a run takes minutes: the machine can change during it),
kept with the machine; when either took more than 15 % longer or shorter than the baseline's, the comparison says so
first too, with the ratio, so a figure's ratio is read against the machine's.

The baseline is changed only on purpose: ``make bench-baseline`` (``bench/run.py --save-baseline``) runs the bench,
prints the comparison with the old baseline and then writes the new one.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["THRESHOLD", "FIGURES", "Figure", "Row", "Comparison", "figures_of", "baseline_from", "compare",
           "format_comparison", "load_baseline", "save_baseline", "same_machine", "speed_probe_s", "BASELINE"]

BASELINE = Path(__file__).resolve().parent / "baseline.json"
#: A figure above this many times its baseline is a regression ("more than 25 % slower").
THRESHOLD = 1.25
#: The probe's time against the baseline's beyond which the machine is said to be slower (or faster) now.
SPEED_SAID = 1.15


def speed_probe_s(repeats: int = 3) -> float:
    """Seconds the machine takes for a fixed piece of pure Python (a million steps of integer arithmetic), the
    best of ``repeats``: its speed at the moment, to read the bench's ratios by (about 0.06 s on this project's
    machine at a quick moment)."""
    best = float("inf")
    for _ in range(repeats):
        t0, s = time.perf_counter(), 0
        for i in range(1_000_000):
            s += i * i % 7
        best = min(best, time.perf_counter() - t0)
    return round(best, 4)


def _get(d, *path):
    """``d[path[0]][path[1]]...``, or None where a step is missing; int keys also found as strings (JSON)."""
    for step in path:
        if not isinstance(d, dict):
            return None
        d = d[step] if step in d else d.get(str(step))
    return d


def _village(spec: str, what: str):
    def get(results: dict):
        for row in results.get("village") or []:
            if row.get("spec") == spec and "failed" not in row:
                return row.get(what)
        return None
    return get


def _at(*path):
    return lambda results: _get(results, *path)


@dataclass(frozen=True)
class Figure:
    """One headline figure: a stable key (the baseline's), what it is, its unit and target, where it is read."""

    key: str
    label: str
    unit: str
    target: float | None
    get: object = field(repr=False, compare=False)  # results dict -> number or None


#: The figures compared, in the order printed. Targets where one is named (first map 1.5 s, drawing to
#: figures 0.6 s, the sample village 2 s, 100,000 lots 5 s, the first AppTest run 2.5 s, peak memory no higher than
#: when the slowdown was measured: ``screen`` 370 MB at 100,000 lots, the server 348 MB after a page); the bench's
#: older targets else. ``bench/run.py`` prints these targets in its sections too (its ``_target``).
FIGURES: tuple[Figure, ...] = (
    Figure("parcel_1ac_median_ms", "one parcel, about 1 acre (analyze_parcel, median)", "ms", 50,
           _at("single_parcel", "1", "median_ms")),
    Figure("parcel_10ac_median_ms", "one parcel, about 10 acres (median)", "ms", 50,
           _at("single_parcel", "10", "median_ms")),
    Figure("parcel_100ac_median_ms", "one parcel, about 100 acres (median)", "ms", 500,
           _at("single_parcel", "100", "median_ms")),
    Figure("screen_sample_s", "screen: the sample village's tax parcels", "s", 2.0, _village("sample", "seconds")),
    Figure("screen_sample_peak_rss_mb", "screen: the sample village, peak RSS", "MB", None,
           _village("sample", "peak_rss_mb")),
    Figure("screen_1000_s", "screen: a 1,000-lot patch", "s", None, _village("patch:100000:1000", "seconds")),
    Figure("screen_20000_s", "screen: 20,000 lots", "s", None, _village("lots:20000", "seconds")),
    Figure("screen_100000_s", "screen: 100,000 lots", "s", 5.0, _village("lots:100000", "seconds")),
    Figure("screen_100000_peak_rss_mb", "screen: 100,000 lots, peak RSS", "MB", 370,
           _village("lots:100000", "peak_rss_mb")),
    Figure("plan_40_lots_s", "plan: a 40-lot plat on the sample (check_plan, warm)", "s", 1.5, _at("plan", "plan_s")),
    Figure("plan_40_lots_share_of_40_analyses", "plan: the plan command's time over 40 analyze commands", "ratio",
           0.1, _at("plan_commands", "share_of_separate")),
    Figure("plan_40_warm_analyses_s", "plan: the same 40 lots analysed one by one (analyze_parcel, warm)", "s",
           None, _at("plan", "separate_analyses_s")),
    Figure("report_pdf_median_s", "PDF report (report_pdf_bytes, median)", "s", None, _at("report_pdf", "median_s")),
    Figure("app_rerun_new_drawing_ms", "app: rerun after a new drawing (AppTest, median)", "ms", 300,
           _at("app", "reruns", "rerun_new_drawing_median_ms")),
    Figure("app_first_apptest_run_s", "app: first AppTest run in a fresh process", "s", 2.5, _at("app", "first_run_s")),
    Figure("app_make_run_first_page_s", "app: make run, first page drawn after the URL opens", "s", 3.0,
           _at("app", "server", "browser_page_load_s")),
    Figure("app_server_rss_after_page_mb", "app: server RSS after the first page", "MB", 348,
           _at("app", "server", "rss_mb_after_first_page")),
    Figure("app_map_payload_bytes", "app: the first page's map payload (message + linked layers)", "bytes", None,
           _at("app", "server", "map_payload", "total_bytes")),
    Figure("browser_first_map_drawn_s", "browser: first map drawn, warm server (median of 5)", "s", 1.5,
           _at("app", "browser", "first_map_drawn_s", "median")),
    Figure("browser_drawing_to_figures_s", "browser: drawing to updated figures (median)", "s", 0.6,
           _at("app", "browser", "drawing_to_figures_s", "median")),
    Figure("browser_address_to_answer_s", "browser: a found address to the answer (median)", "s", 1.5,
           _at("app", "browser", "address_to_answer_s", "median")),
    Figure("browser_page_switch_s", "browser: page switch with a parcel chosen (median)", "s", 1.0,
           _at("app", "browser", "page_switch_with_parcel_s", "median")),
    Figure("load_p95_1_session_s", "service: one session's p95 (nginx, two processes)", "s", None,
           _at("load", "levels", 1, "p95_s")),
    Figure("load_p95_20_sessions_s", "service: 20 concurrent sessions' p95", "s", None,
           _at("load", "levels", 20, "p95_s")),
    Figure("load_cpu_per_session_20_s", "service: server CPU a session at 20 sessions", "s", None,
           _at("load", "levels", 20, "server_cpu_s_per_session")),
)


def figures_of(results: dict) -> dict[str, float]:
    """The headline figures a bench run's results hold, by key (a figure not measured is left out)."""
    out = {}
    for f in FIGURES:
        value = f.get(results)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[f.key] = float(value)
    return out


def _machine_id(machine: dict | None) -> tuple:
    machine = machine or {}
    return (str(machine.get("cpu_model") or "").strip(), machine.get("nproc"))


def same_machine(a: dict | None, b: dict | None) -> bool:
    """The same CPU model and number of cores."""
    return _machine_id(a) == _machine_id(b)


def baseline_from(results: dict) -> dict:
    """The baseline a bench run's results make: its figures, its machine and when it was taken."""
    m = results.get("machine") or {}
    by_key = {f.key: f for f in FIGURES}
    return {
        "taken": results.get("started"),
        "machine": {"cpu_model": m.get("cpu_model"), "nproc": m.get("nproc"), "memory": m.get("memory"),
                    "python": m.get("python"), "load_average_at_start": m.get("load_average_at_start"),
                    "speed_probe_s": m.get("speed_probe_s"), "speed_probe_end_s": m.get("speed_probe_end_s")},
        "options": results.get("options") or {},
        "figures": {k: {"value": v, "unit": by_key[k].unit, "label": by_key[k].label}
                    for k, v in figures_of(results).items()},
    }


def load_baseline(path: Path = BASELINE) -> dict | None:
    """The baseline kept in the repository, or None when there is none."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def save_baseline(results: dict, path: Path = BASELINE, note: str | None = None) -> dict:
    base = baseline_from(results)
    if note:
        base["note"] = note
    Path(path).write_text(json.dumps(base, indent=1) + "\n", encoding="utf-8")
    return base


@dataclass(frozen=True)
class Row:
    figure: Figure
    value: float | None
    baseline: float | None
    #: "ok", "REGRESSION", "new" (no baseline for it) or "not measured" (this run did not measure it)
    status: str

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline


@dataclass(frozen=True)
class Comparison:
    rows: tuple[Row, ...]
    #: None when there is no baseline file
    baseline_taken: str | None
    #: a sentence when this run's machine is not the baseline's, else None
    machine_note: str | None
    #: a sentence when the same machine ran the speed probe more than 15 % slower or faster than for the baseline
    speed_note: str | None = None

    @property
    def regressions(self) -> list[Row]:
        return [r for r in self.rows if r.status == "REGRESSION"]

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.figure.key == key)


def _describe(machine: dict | None) -> str:
    cpu, cores = _machine_id(machine)
    return f"{cpu or 'an unknown CPU'}, {cores if cores is not None else '?'} cores"


def compare(results: dict, baseline: dict | None) -> Comparison:
    """This run's figures against ``baseline`` (None: no baseline, every figure measured is new)."""
    now = figures_of(results)
    before = {k: v.get("value") for k, v in ((baseline or {}).get("figures") or {}).items()}
    rows = []
    for f in FIGURES:
        value, base = now.get(f.key), before.get(f.key)
        if value is None and base is None:
            continue
        if value is None:
            status = "not measured"
        elif not isinstance(base, (int, float)) or base <= 0:
            status, base = "new", None
        elif value / base > THRESHOLD:
            status = "REGRESSION"
        else:
            status = "ok"
        rows.append(Row(f, value, base, status))
    note = None
    if baseline is not None and not same_machine(results.get("machine"), baseline.get("machine")):
        note = (f"The baseline was taken on another machine ({_describe(baseline.get('machine'))}; this run: "
                f"{_describe(results.get('machine'))}): the ratios compare the machines as much as the code.")
    return Comparison(tuple(rows), (baseline or {}).get("taken") or ("?" if baseline is not None else None), note,
                      None if note is not None else _speed_note(results, baseline))


def _probes(machine: dict | None) -> dict[str, float]:
    """A run's speed probe readings, {"at the start": s, "at the end": s}, those it has."""
    found = {"at the start": _get(machine or {}, "speed_probe_s"), "at the end": _get(machine or {}, "speed_probe_end_s")}
    return {when: v for when, v in found.items() if isinstance(v, (int, float)) and v > 0}


def _speed_note(results: dict, baseline: dict | None) -> str | None:
    """A sentence when this run's speed probe, at its start or its end, is more than 15 % off the baseline's (its
    start's reading, or the mean of its start and end): the reading farthest off is given."""
    now, then = _probes(results.get("machine")), _probes((baseline or {}).get("machine"))
    if not now or not then:
        return None
    ref = sum(then.values()) / len(then)
    when, value = max(now.items(), key=lambda kv: max(kv[1] / ref, ref / kv[1]))
    ratio = value / ref
    if 1 / SPEED_SAID <= ratio <= SPEED_SAID:
        return None
    word = "SLOWER" if ratio > 1 else "FASTER"
    readings = " and ".join(f"{v:.3f} s {w}" for w, v in now.items())
    return (f"MACHINE {word} NOW: the speed probe took {readings} of this run against {ref:.3f} s for the baseline "
            f"({ratio:.2f}x {when}): read each ratio below against it.")


def _num(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "bytes":
        return f"{value:,.0f} B"
    if unit == "MB":
        return f"{value:,.0f} MB"
    if unit == "ms":
        return f"{value:,.1f} ms"
    return f"{value:,.3f} s" if value < 10 else f"{value:,.1f} s"


def format_comparison(comp: Comparison, baseline: dict | None = None, path: str = "bench/baseline.json") -> str:
    """The table printed after the bench's sections, and the regressions listed at its end."""
    lines = []
    if comp.baseline_taken is None:
        lines.append(f"Against the baseline: no baseline ({path} is missing): run make bench-baseline. "
                     "Every figure is new.")
    else:
        m = (baseline or {}).get("machine") or {}
        load = m.get("load_average_at_start") or []
        quick = " (--quick)" if ((baseline or {}).get("options") or {}).get("quick") else ""
        lines.append(f"Against the baseline ({path}, taken {comp.baseline_taken}{quick} on {_describe(m)}"
                     + (f", load average {load[0]:.1f} at its start" if load else "") + ")")
        if (baseline or {}).get("note"):
            lines.append(f"   The baseline's note: {baseline['note']}")
        if comp.machine_note:
            lines.append(f"   MACHINE DIFFERS: {comp.machine_note}")
        if comp.speed_note:
            lines.append(f"   {comp.speed_note}")
    lines.append(f"{'':<11}{'figure':<62} {'now':>14} {'target':>12} {'baseline':>14}  ratio")
    for r in comp.rows:
        f = r.figure
        target = f"<= {_num(f.target, f.unit)}" if f.target is not None else ""
        if r.status in ("ok", "REGRESSION"):
            ratio = f"{r.ratio:.2f}x"
        else:
            ratio = r.status
        met = "" if f.target is None or r.value is None else ("" if r.value <= f.target else " (target not met)")
        prefix = "REGRESSION " if r.status == "REGRESSION" else " " * 11
        lines.append(f"{prefix}{f.label:<62} {_num(r.value, f.unit):>14} {target:>12} {_num(r.baseline, f.unit):>14}"
                     f"  {ratio}{met}")
    regs = comp.regressions
    lines.append("")
    if regs:
        lines.append(f"{len(regs)} REGRESSION(S): more than {THRESHOLD - 1:.0%} above the baseline:")
        for r in regs:
            lines.append(f"REGRESSION {r.figure.label}: {_num(r.value, r.figure.unit)} against "
                         f"{_num(r.baseline, r.figure.unit)} ({r.ratio:.2f}x)")
    elif comp.baseline_taken is not None:
        lines.append(f"No regression: no figure more than {THRESHOLD - 1:.0%} above the baseline.")
    return "\n".join(lines)
