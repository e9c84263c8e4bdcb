"""`make bench` compares its figures with the baseline kept in the repository (bench/baseline.py).

Hand-built results, shaped as bench/run.py writes them: a figure more than 25 % above its baseline is a
regression (24 % is not, 26 % is), for a time and for a peak memory alike; a figure the baseline does not hold is
new; no baseline file says how to make one; a baseline from another machine is said so, and so is the same machine
running the speed probe more than 15 % slower or faster than for the baseline.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import baseline as bench_baseline  # noqa: E402

XEON = "Intel(R) Xeon(R) CPU @ 2.20GHz"


def results(first_map_s=1.0, peak_rss_mb=370.0, payload_bytes=600_000, cpu=XEON, nproc=2, apptest_s=None,
            probe_s=0.06, probe_end_s=None):
    """A bench run's results with a few figures: a time, a memory, a size (and optionally the first AppTest run)."""
    app = {"browser": {"first_map_drawn_s": {"median": first_map_s, "max": first_map_s, "n": 5}},
           "server": {"map_payload": {"total_bytes": payload_bytes}}}
    if apptest_s is not None:
        app["first_run_s"] = apptest_s
    return {"started": "2026-12-05 10:00:00",
            "machine": {"cpu_model": cpu, "nproc": nproc, "load_average_at_start": [0.4, 0.3, 0.2],
                        "speed_probe_s": probe_s, "speed_probe_end_s": probe_end_s},
            "village": [{"spec": "lots:100000", "seconds": 5.0, "peak_rss_mb": peak_rss_mb}],
            "app": app}


BASE = bench_baseline.baseline_from(results())


def status(comparison, key):
    return comparison.row(key).status


def test_a_time_24_percent_slower_than_the_baseline_is_not_a_regression():
    comp = bench_baseline.compare(results(first_map_s=1.24), BASE)
    assert status(comp, "browser_first_map_drawn_s") == "ok"
    assert abs(comp.row("browser_first_map_drawn_s").ratio - 1.24) < 1e-9
    assert comp.regressions == []


def test_a_time_26_percent_slower_than_the_baseline_is_a_regression():
    comp = bench_baseline.compare(results(first_map_s=1.26), BASE)
    assert status(comp, "browser_first_map_drawn_s") == "REGRESSION"
    assert [r.figure.key for r in comp.regressions] == ["browser_first_map_drawn_s"]


def test_a_faster_figure_is_not_a_regression():
    comp = bench_baseline.compare(results(first_map_s=0.5, peak_rss_mb=200.0), BASE)
    assert comp.regressions == []
    assert abs(comp.row("browser_first_map_drawn_s").ratio - 0.5) < 1e-9


def test_peak_memory_compares_as_a_ratio_too():
    assert status(bench_baseline.compare(results(peak_rss_mb=370.0 * 1.24), BASE), "screen_100000_peak_rss_mb") == "ok"
    comp = bench_baseline.compare(results(peak_rss_mb=370.0 * 1.26), BASE)
    assert status(comp, "screen_100000_peak_rss_mb") == "REGRESSION"


def test_the_map_payload_in_bytes_compares_as_a_ratio_too():
    assert status(bench_baseline.compare(results(payload_bytes=744_000), BASE), "app_map_payload_bytes") == "ok"
    assert status(bench_baseline.compare(results(payload_bytes=756_000), BASE), "app_map_payload_bytes") == "REGRESSION"


def test_a_figure_the_baseline_does_not_hold_is_new():
    comp = bench_baseline.compare(results(apptest_s=9.0), BASE)
    row = comp.row("app_first_apptest_run_s")
    assert row.status == "new" and row.baseline is None and row.ratio is None
    assert comp.regressions == []
    assert any(line.rstrip().endswith("new (target not met)") and "first AppTest run" in line
               for line in bench_baseline.format_comparison(comp, BASE).splitlines())


def test_a_figure_this_run_did_not_measure_is_said_and_is_not_a_regression():
    measured = results()
    del measured["app"]
    comp = bench_baseline.compare(measured, BASE)
    assert status(comp, "browser_first_map_drawn_s") == "not measured"
    assert comp.regressions == []


def test_without_a_baseline_file_every_figure_is_new_and_the_command_to_make_one_is_shown(tmp_path):
    missing = bench_baseline.load_baseline(tmp_path / "baseline.json")
    assert missing is None
    comp = bench_baseline.compare(results(first_map_s=3.0), missing)
    assert {r.status for r in comp.rows} == {"new"}
    text = bench_baseline.format_comparison(comp, missing)
    assert "no baseline" in text and "make bench-baseline" in text
    assert "REGRESSION" not in text


def test_a_baseline_from_another_machine_is_said():
    other_cpu = bench_baseline.compare(results(cpu="AMD EPYC 7B13"), BASE)
    other_cores = bench_baseline.compare(results(nproc=4), BASE)
    same = bench_baseline.compare(results(first_map_s=1.1), BASE)
    assert same.machine_note is None
    for comp, said in ((other_cpu, "AMD EPYC 7B13"), (other_cores, "4 cores")):
        assert comp.machine_note and said in comp.machine_note and XEON in comp.machine_note
        assert "MACHINE DIFFERS" in bench_baseline.format_comparison(comp, BASE)
    assert "MACHINE DIFFERS" not in bench_baseline.format_comparison(same, BASE)


def test_the_same_machine_running_the_speed_probe_over_15_percent_slower_or_faster_is_said_first():
    slower = bench_baseline.compare(results(probe_s=0.06 * 1.16), BASE)
    faster = bench_baseline.compare(results(probe_s=0.06 / 1.16), BASE)
    within = [bench_baseline.compare(results(probe_s=0.06 * k), BASE) for k in (1.14, 1 / 1.14)]
    assert slower.speed_note.startswith("MACHINE SLOWER NOW") and "1.16x" in slower.speed_note
    assert faster.speed_note.startswith("MACHINE FASTER NOW") and "0.86x" in faster.speed_note
    assert all(c.speed_note is None for c in within)
    printed = bench_baseline.format_comparison(slower, BASE).splitlines()
    assert printed[1].strip().startswith("MACHINE SLOWER NOW")  # right under the baseline's line, before the rows
    unprobed = {**BASE, "machine": {**BASE["machine"], "speed_probe_s": None}}  # a baseline taken before the probe
    assert bench_baseline.compare(results(probe_s=1.0), unprobed).speed_note is None
    # another machine: its note says so; the probe's ratio would compare machines, not moments
    assert bench_baseline.compare(results(cpu="AMD EPYC 7B13", probe_s=1.0), BASE).speed_note is None


def test_a_machine_that_slowed_during_the_run_is_said_from_the_probe_at_its_end():
    """The probe runs at the start and the end of a run: a machine quick at the start and 16 % slower at the end is
    said, with both readings and the one that is off; both within 15 % is not."""
    slowed = bench_baseline.compare(results(probe_s=0.06, probe_end_s=0.06 * 1.16), BASE)
    assert slowed.speed_note.startswith("MACHINE SLOWER NOW") and "1.16x at the end" in slowed.speed_note
    assert "0.060 s at the start and 0.070 s at the end" in slowed.speed_note
    assert bench_baseline.compare(results(probe_s=0.06, probe_end_s=0.06 * 1.14), BASE).speed_note is None
    # a baseline with both readings is read at their mean: 0.05 and 0.07 -> 0.06
    both = bench_baseline.baseline_from(results(probe_s=0.05, probe_end_s=0.07))
    assert bench_baseline.compare(results(probe_s=0.06 * 1.14), both).speed_note is None
    assert "1.16x at the start" in bench_baseline.compare(results(probe_s=0.06 * 1.16), both).speed_note


def test_the_speed_probe_times_a_fixed_piece_of_work():
    assert 0 < bench_baseline.speed_probe_s(repeats=1) < 10


def test_a_regression_is_printed_with_its_ratio_and_listed_again_at_the_end():
    comp = bench_baseline.compare(results(first_map_s=1.5), BASE)
    lines = bench_baseline.format_comparison(comp, BASE).splitlines()
    marked = [line for line in lines if line.startswith("REGRESSION")]
    assert len(marked) == 2  # its row, and the list at the end
    assert "first map drawn" in marked[0] and "1.50x" in marked[0] and "<= 1.500 s" in marked[0]
    assert lines[-1] == marked[1] and "1.50x" in lines[-1]
    ok = bench_baseline.format_comparison(bench_baseline.compare(results(first_map_s=1.2), BASE), BASE)
    assert not any(line.startswith("REGRESSION") for line in ok.splitlines())
    assert "1.20x" in ok


def test_a_saved_baseline_records_the_machine_and_the_date_and_reads_back(tmp_path):
    path = tmp_path / "baseline.json"
    bench_baseline.save_baseline(results(), path, note="taken on a shared machine")
    saved = bench_baseline.load_baseline(path)
    assert saved["taken"] == "2026-12-05 10:00:00"
    assert saved["machine"]["cpu_model"] == XEON and saved["machine"]["nproc"] == 2
    assert saved["machine"]["speed_probe_s"] == 0.06 and saved["machine"]["speed_probe_end_s"] is None
    assert saved["figures"]["browser_first_map_drawn_s"]["value"] == 1.0
    comp = bench_baseline.compare(results(), saved)
    assert comp.machine_note is None and comp.regressions == []
    assert {r.status for r in comp.rows} == {"ok"}


def test_every_figure_the_bench_must_show_has_its_target():
    targets = {f.key: f.target for f in bench_baseline.FIGURES}
    assert targets["browser_first_map_drawn_s"] == 1.5
    assert targets["browser_drawing_to_figures_s"] == 0.6
    assert targets["screen_sample_s"] == 2.0
    assert targets["screen_100000_s"] == 5.0
    assert targets["app_first_apptest_run_s"] == 2.5
    assert targets["screen_100000_peak_rss_mb"] == 370
    assert targets["app_server_rss_after_page_mb"] == 348
    assert "app_map_payload_bytes" in targets
