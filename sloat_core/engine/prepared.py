"""Tax-parcel answers worked out ahead: every tax parcel's analysis for the day, in one file of the data folder.

A resident at the counter most often picks a tax parcel and reads its answer; that answer depends only on the
parcel, the layer set, the local settings, the code and the day. :func:`prepare` (``python -m sloat_core
prepare-answers``, run by ``sloat-answers.timer`` each night, after a layer refresh and after an upgrade) works out
:func:`~sloat_core.engine.analysis.analyze_parcel`'s result for every tax parcel, in the district its tax
record gives (the one a pick starts with; the zoning map's where it gives none) and with no project, and writes them into ``answers.sqlite3``. The app then reads such an answer instead of
working it out again (:class:`PreparedAnswers`), for every visitor and in every process.

The file is named for what it was made from: its *generation* (:func:`generation`) is a hash of

- the day (``as_of``), the schema of this file;
- the layer manifest's bytes, and the size and modification time of every file it names (with a shapefile's
  sidecars, and every file of a folder layer);
- the local settings file's bytes, and those of the other files the rules read (the parameters, the state-law
  settings, the lot-size candidates: the shipped ones or those their environment variables name);
- the code: every source file of ``sloat_core`` and ``data/law/``, and the versions of Python and of the geometry
  libraries (GEOS, shapely, pyproj, NumPy, pandas, geopandas), worked out once per process (the settings files
  are not part of it: they are hashed as they are at each call, above).

An answer is used only when the file's generation is the one the app works out for its own layer set, settings
and day, and the parcel's key (:func:`answer_key`: its geometry, what the result repeats of it and the district)
is in it.
Anything else (another day, an edited setting, new layers, new code, a drawn or uploaded outline, a chosen
district, a project) is worked out as before. A missing, damaged or foreign file is the same as none.

Beside each answer the file holds the parcel's slope picture for the web map (:mod:`sloat_core.gis.slope_web`,
keyed by :func:`picture_key`): the page reads it instead of warping and encoding it again (3 ms of a pick, on one
warm-up thread that every session of a process shares).

The file is written whole into a temporary file beside it and moved into place (``os.replace``): a reader sees
the old file or the new one, never a half-written one. Results are JSON (the command line's contract),
compressed with zlib (about 13 kB a parcel on the sample); nothing in the file is executed.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import logging
import math
import os
import platform
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sloat_core.engine.result import ParcelResult

__all__ = ["ANSWERS_FILE", "SCHEMA", "PrepareReport", "PreparedAnswers", "answer_key", "generation", "prepare"]

_log = logging.getLogger("sloat.prepared")

#: File name of the answers inside the data folder.
ANSWERS_FILE = "answers.sqlite3"
#: Version of the file's tables (part of the generation).
SCHEMA = 2  # 2: the slope pictures of the web map beside the answers
_ROOT = Path(__file__).resolve().parents[2]
_APPLICATION_ID = 0x534C4131  # "SLA1": a file that does not carry it is not an answers file


def answer_key(parcel, district: str | None) -> str:
    """The key of a parcel's answer: its geometry (WKB), what the result repeats of it and the district it was
    worked out for."""
    meta = [getattr(parcel, k, None) for k in ("sbl", "address", "district", "source")] + [district or None]
    digest = hashlib.sha256(parcel.geometry.wkb)
    digest.update(json.dumps(meta, default=str).encode("utf-8"))
    return digest.hexdigest()


def picture_key(request) -> str:
    """The key of a slope picture: its :func:`sloat_core.gis.slope_web.picture_request` (DEM, padded bounds, size,
    clip outline, the date whose law its classes are read at)."""
    dem_path, bounds, max_size, clip_wkb, on = request
    digest = hashlib.sha256(json.dumps([str(dem_path), [float(b).hex() for b in bounds], int(max_size),
                                        on.isoformat()]).encode())
    digest.update(clip_wkb or b"")
    return digest.hexdigest()


def _file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "absent"


def _manifest_paths(node) -> list[str]:
    """Every file a parsed manifest names, in order: each ``path:`` value, and ``dem:`` given as a bare path."""
    if isinstance(node, dict):
        return [p for k, v in node.items()
                for p in ([v] if k in ("path", "dem") and isinstance(v, str) else _manifest_paths(v))]
    if isinstance(node, list):
        return [p for v in node for p in _manifest_paths(v)]
    return []


def _stamp(path: Path) -> list | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _file_stamps(path: Path) -> dict:
    """Size and modification time of a layer file and of what is read with it: a shapefile's sidecars (the same
    name, another suffix), every file of a folder layer (a File Geodatabase)."""
    if path.is_dir():
        return {str(p.relative_to(path)): _stamp(p) for p in sorted(path.rglob("*")) if p.is_file()} or {"": None}
    with contextlib.suppress(OSError):
        if path.parent.is_dir():
            return {p.name: _stamp(p) for p in sorted(path.parent.iterdir())
                    if p.is_file() and (p == path or p.stem.lower() == path.stem.lower())} or {path.name: None}
    return {path.name: None}


def _layers_fingerprint(manifest_path: Path) -> dict:
    import yaml

    text = manifest_path.read_bytes()
    files = {rel: _file_stamps((manifest_path.parent / Path(rel).expanduser()).resolve())
             for rel in _manifest_paths(yaml.safe_load(text) or {})}
    return {"manifest": str(manifest_path.resolve()), "sha256": hashlib.sha256(text).hexdigest(), "files": files}


def _rule_paths() -> dict[str, Path]:
    """The files the rules read besides the local settings, as they are named now (environment variables
    included): the parameters, the state-law settings and the lot-size candidates."""
    from sloat_core.approvals import state_law
    from sloat_core.engine import what_if
    from sloat_core.law import params

    named = {"params": os.environ.get(params.PARAMS_ENV) or params.PARAMS_PATH,
             "state_law": os.environ.get(state_law.STATE_LAW_ENV) or state_law.STATE_LAW_PATH,
             "what_if": os.environ.get(what_if.WHAT_IF_ENV) or what_if.WHAT_IF_PATH}
    return {name: Path(path).expanduser() for name, path in named.items()}


def _rule_files() -> dict:
    return {name: _file_sha256(path) for name, path in _rule_paths().items()}


def settings_stamp(settings_path: str | Path | None = None) -> tuple:
    """The (path, modification time, size) of the local settings file and of each file :func:`_rule_paths`
    names, as they are now: a caller that keeps a generation may keep it while this stays the same (an edit of
    any of them changes it; their bytes are what :func:`generation` hashes)."""
    from sloat_core.law.settings import SETTINGS_PATH

    out = []
    for path in (Path(settings_path or SETTINGS_PATH), *_rule_paths().values()):
        try:
            st = os.stat(path)
        except OSError:
            out.append((str(path), None, None))
        else:
            out.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(out)


_CODE_LOCK = threading.Lock()
_CODE: list[str] = []


def _code_fingerprint() -> str:
    """The code the answers come from (worked out once per process)."""
    with _CODE_LOCK:
        if not _CODE:
            import geopandas
            import numpy
            import pandas
            import pyproj
            import shapely

            digest = hashlib.sha256()
            # not data/settings: its files are settings an office edits while the app runs; generation() hashes
            # them as they are at each call (a process started before an edit must name the answers as one
            # started after it does)
            for path in sorted([*(_ROOT / "sloat_core").rglob("*.py"), *(_ROOT / "data" / "law").rglob("*")]):
                if path.is_file():
                    digest.update(str(path.relative_to(_ROOT)).encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
            versions = [platform.python_version(), shapely.geos_version_string, shapely.__version__,
                        pyproj.__version__, pyproj.proj_version_str, numpy.__version__, pandas.__version__,
                        geopandas.__version__]
            digest.update(json.dumps(versions).encode("utf-8"))
            _CODE.append(digest.hexdigest())
        return _CODE[0]


def generation(manifest_path: str | Path, as_of: dt.date, settings_path: str | Path | None = None) -> str:
    """The name of the answers made from this layer manifest, the local settings file and the code on ``as_of``.

    ``settings_path``: the local settings file (default: the one :func:`sloat_core.law.settings.load_settings`
    reads).
    """
    from sloat_core.law.settings import SETTINGS_PATH

    parts = {"schema": SCHEMA, "as_of": as_of.isoformat(), "layers": _layers_fingerprint(Path(manifest_path)),
             "settings": _file_sha256(Path(settings_path or SETTINGS_PATH)), "rules": _rule_files(),
             "code": _code_fingerprint()}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class PrepareReport:
    """What :func:`prepare` wrote."""

    path: Path
    generation: str
    as_of: dt.date
    answers: int
    refused: dict[str, str]  # SBL -> the sentence its analysis gave
    seconds: float
    pictures: int = 0  # slope pictures of the web map stored beside the answers (none without a DEM)
    attempts: int = 1  # runs made (more than one when what the answers are made from changed during a run)
    installed: bool = True  # False: it kept changing, the old file was left as it was

    def summary(self) -> str:
        if not self.installed:
            return (f"The settings or layers changed during each of {self.attempts} runs; the tax-parcel "
                    f"answers for {self.as_of.isoformat()} were not replaced (picks are worked out as asked)")
        line = (f"{self.answers:,} tax-parcel answers worked out ahead for {self.as_of.isoformat()} in "
                f"{self.seconds:.1f} s (generation {self.generation[:12]})")
        if self.pictures:
            line += f", with {self.pictures:,} slope pictures"
        if self.refused:
            line += f"; {len(self.refused):,} could not be analysed (they are worked out when asked)"
        if self.attempts > 1:
            line += f"; made {self.attempts} times, as what they are made from changed during a run"
        return line


def _tax_parcels(layers):
    """(SBL, parcel or None, why not) for each tax parcel once: SBLs that differ only in case or spaces are one
    parcel to ``parcel_by_sbl``."""
    from sloat_core.errors import SloatInputError
    from sloat_core.gis.parcels import parcel_by_sbl, sbl_identity

    lyr, meta = layers.get("parcels"), layers.parcels_meta
    if lyr is None or meta is None or meta.id_field not in lyr.gdf.columns:
        return
    first: dict[str, str] = {}
    for s in lyr.gdf[meta.id_field]:
        if s is not None and str(s).strip():
            first.setdefault(sbl_identity(s), str(s))
    for sbl in first.values():
        try:
            yield sbl, parcel_by_sbl(layers, sbl), None
        except SloatInputError as exc:
            yield sbl, None, str(exc)


#: How many times :func:`prepare` starts again when what the answers are made from changed during a run.
ATTEMPTS = 3


def prepare(layers, data_dir: str | Path, *, as_of: dt.date | None = None, attempts: int = ATTEMPTS) -> PrepareReport:
    """Work out every tax parcel's answer for ``as_of`` (default today) and write ``data_dir/answers.sqlite3``.

    One run at a time per data folder (a lock file beside it); the new file replaces the old one whole, and only
    when the generation is the same at the end of the run as at its start. A setting edited or a layer file
    replaced during the run could otherwise leave answers of two generations under one name; the run is then
    made again (the layers read anew when theirs changed), up to ``attempts`` times. (The code is read once per
    process: a run under way when the code is upgraded names its answers for the old code, which the upgraded
    app does not use; ``deploy/upgrade.sh`` restarts the job.) If
    what they are made from keeps changing, the old file is left as it was (``installed`` False) and the app
    works picks out as asked until the next run.
    """
    from sloat_core.gis.layers import clear_manifest_cache, load_manifest

    as_of = as_of or dt.date.today()
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    target = data_dir / ANSWERS_FILE
    t0 = time.perf_counter()
    with open(data_dir / (ANSWERS_FILE + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tmp = data_dir / f".{ANSWERS_FILE}.{os.getpid()}.tmp"
        try:
            for attempt in range(1, max(1, attempts) + 1):
                gen, fingerprint = generation(layers.manifest_path, as_of), _layers_fingerprint(layers.manifest_path)
                count, refused, pictures = _write_answers(tmp, layers, gen, as_of)
                now = generation(layers.manifest_path, as_of)
                if now == gen:
                    os.replace(tmp, target)
                    return PrepareReport(target, gen, as_of, count, refused, time.perf_counter() - t0,
                                         pictures=pictures, attempts=attempt)
                _log.warning("what the answers are made from changed during the run (generation %s, now %s); "
                             "they are worked out again", gen[:12], now[:12])
                if _layers_fingerprint(layers.manifest_path) != fingerprint:
                    clear_manifest_cache()  # a layer file replaced in place: the manifest's own time may not say so
                    layers = load_manifest(layers.manifest_path)
        finally:
            tmp.unlink(missing_ok=True)
    return PrepareReport(target, now, as_of, 0, {}, time.perf_counter() - t0, attempts=attempt, installed=False)


def _write_answers(tmp: Path, layers, gen: str, as_of: dt.date) -> tuple[int, dict[str, str], int]:
    """Every tax parcel's answer and slope picture into a new file ``tmp``: (answers written, SBL -> why not for
    the others, pictures written)."""
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.errors import SloatInputError

    tmp.unlink(missing_ok=True)
    refused: dict[str, str] = {}
    count = pictures = 0
    con = sqlite3.connect(tmp)
    try:
        con.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("CREATE TABLE answers (parcel_key TEXT PRIMARY KEY, sbl TEXT NOT NULL, "
                    "result BLOB NOT NULL) WITHOUT ROWID")
        con.execute("CREATE TABLE pictures (picture_key TEXT PRIMARY KEY, png BLOB NOT NULL, "
                    "bounds TEXT NOT NULL) WITHOUT ROWID")
        for sbl, parcel, problem in _tax_parcels(layers):
            if parcel is not None:
                try:
                    # the district a pick starts with: the tax layer's (app_support.frame.state.set_parcel)
                    district = getattr(parcel, "district", None) or None
                    result = analyze_parcel(parcel, layers, district=district, as_of=as_of).result
                except SloatInputError as exc:
                    problem = str(exc)
                else:
                    con.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)",
                                (answer_key(parcel, district), sbl,
                                 zlib.compress(json.dumps(result.to_dict()).encode("utf-8"), 6)))
                    count += 1
                    pictures += _write_picture(con, layers, parcel, as_of)
                    continue
            refused[sbl] = problem or "not analysed"
        con.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("generation", gen), ("as_of", as_of.isoformat()), ("schema", str(SCHEMA)),
            ("made_at", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
            ("answers", str(count)), ("pictures", str(pictures)), ("layers", str(layers.manifest_path))])
        con.commit()
    finally:
        con.close()
    os.chmod(tmp, 0o640)
    return count, refused, pictures


def _write_picture(con, layers, parcel, as_of: dt.date) -> int:
    """The slope picture the web map shows over the parcel (:mod:`sloat_core.gis.slope_web`), its classes by the law
    of the answers' date, stored as its PNG and WGS84 bounds; 1 if stored, 0 without a DEM, off the DEM or when it
    cannot be made (the app makes it)."""
    from rasterio.errors import RasterioError

    from sloat_core.gis.slope_web import class_picture, indexed_png, picture_request

    if getattr(layers, "dem_path", None) is None:
        return 0
    request = picture_request(layers.dem_path, parcel.geometry, as_of)
    try:
        made = class_picture(*request)
    except (OSError, ValueError, RasterioError) as exc:
        _log.warning("the slope picture of %s cannot be made ahead (%s); the app makes it", parcel.sbl, exc)
        return 0
    if made is None:
        return 0
    codes, latlon_bounds = made
    con.execute("INSERT OR REPLACE INTO pictures VALUES (?, ?, ?)",
                (picture_key(request), indexed_png(codes), json.dumps(latlon_bounds)))
    return 1


class PreparedAnswers:
    """The answers file of a data folder, read-only; reopened when the file is replaced.

    :meth:`get` gives None for anything it does not hold: no file, a damaged or foreign one, another generation,
    an unknown parcel. A damaged or foreign file is logged once per file. One connection serves every thread, one
    query at a time (a lookup takes well under a millisecond).
    """

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / ANSWERS_FILE
        self._lock = threading.Lock()
        self._held: tuple | None = None  # (stamp, connection, generation) of the file last opened
        self._warned: set = set()

    def _stamp(self):
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _connection(self):
        """(connection, generation) for the file as it is now, or None. Called with the lock held."""
        stamp = self._stamp()
        if self._held is not None and (stamp is None or self._held[0] != stamp):
            with contextlib.suppress(sqlite3.Error):
                self._held[1].close()
            self._held = None
        if stamp is None:
            return None
        if self._held is not None:
            return self._held[1:]
        if stamp in self._warned:
            return None
        try:
            # the file is never changed in place (a new one replaces it), so each one is opened as immutable
            con = sqlite3.connect(f"{self.path.as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
            try:
                if con.execute("PRAGMA application_id").fetchone()[0] != _APPLICATION_ID:
                    raise sqlite3.DatabaseError("not an answers file")
                row = con.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
            except sqlite3.Error:
                con.close()
                raise
        except sqlite3.Error as exc:
            self._warned.add(stamp)
            _log.warning("the answers file %s cannot be read (%s); answers are worked out when asked", self.path, exc)
            return None
        self._held = (stamp, con, row[0] if row else None)
        return self._held[1:]

    def file_stamp(self) -> tuple | None:
        """(inode, modification time, size) of the file as it is now (None: no file): a new file, a new stamp."""
        return self._stamp()

    def generation(self) -> str | None:
        """The generation of the file as it is now (None: no usable file)."""
        with self._lock:
            found = self._connection()
        return None if found is None else found[1]

    def _row(self, gen: str, sql: str, key: str) -> tuple | None:
        """The row ``sql`` finds for ``key`` if the file is of generation ``gen``; None for no row, no usable file,
        another generation or a read that fails (logged)."""
        with self._lock:
            found = self._connection()
            if found is None or found[1] != gen:
                return None
            try:
                return found[0].execute(sql, (key,)).fetchone()
            except sqlite3.Error as exc:
                _log.warning("a row of %s cannot be read (%s); it is worked out instead", self.path, exc)
                return None

    def get(self, gen: str, key: str) -> ParcelResult | None:
        """The answer stored under ``key`` if the file is of generation ``gen``, read back as the typed result
        (``ParcelResult.from_dict`` of the stored ``to_dict()``); None for anything else, a damaged row or one
        that is not a result's shape too."""
        from sloat_core.engine.result import ParcelResult

        row = self._row(gen, "SELECT result FROM answers WHERE parcel_key = ?", key)
        try:
            return ParcelResult.from_dict(json.loads(zlib.decompress(row[0]))) if row else None
        except (ValueError, TypeError, zlib.error) as exc:  # a damaged row (text or a number where a blob goes)
            _log.warning("an answer in %s cannot be read (%s); it is worked out instead", self.path, exc)
            return None

    def picture(self, gen: str, key: str) -> tuple[str, list[list[float]]] | None:
        """The slope picture stored under ``key`` (:func:`picture_key`) if the file is of generation ``gen``: a
        PNG data URL and its WGS84 bounds [[south, west], [north, east]], as
        :func:`sloat_core.gis.slope_web.png_data_url` gives them; None for anything else (a damaged row too)."""
        row = self._row(gen, "SELECT png, bounds FROM pictures WHERE picture_key = ?", key)
        if row is None:
            return None
        png, bounds = row
        try:
            box = json.loads(bounds)
            ok = (isinstance(png, bytes) and png.startswith(b"\x89PNG\r\n\x1a\n") and isinstance(box, list)
                  and len(box) == 2 and all(isinstance(c, list) and len(c) == 2 for c in box)
                  and all(isinstance(v, (int, float)) and math.isfinite(v) for c in box for v in c))
        except (ValueError, TypeError):
            ok = False
        if not ok:
            _log.warning("a picture in %s cannot be read; it is made instead", self.path)
            return None
        return "data:image/png;base64," + base64.b64encode(png).decode("ascii"), box
