"""Campaigns: one SQLite file keeps every character made for a campaign, and no name
comes twice within it.

A campaign file is an SQLite database (the standard library's sqlite3, imported
only when a campaign is used) marked with chargen's `application_id` and a schema
version in `user_version`; an older schema is migrated step by step from the first
one (`MIGRATIONS`), a newer one, a foreign file or a damaged one is refused and never
written. It runs in WAL mode, so readers never wait for writers.

A run stores its characters through a `Recorder`, in chunks: each chunk is one
`BEGIN IMMEDIATE` transaction, taken before the chunk's first character is made, so
the names the engine checks (`CampaignNames.taken`, which the engine's UniqueNames
consults) and the names stored are read and written under the one write lock:
another process waits for the chunk, then sees its names. The UNIQUE index on
(system, name) is the last word. A SIGKILL loses only the chunk in flight; an error
(a full disk, a damaged page) or an interrupt rolls the chunk back and removes what
the run stored before, so the file is as it was.

The stored JSON is the character's exact JSON line: `campaign show` renders every
format from it, so the sheet and the JSON are byte for byte what the run printed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from chargen.encode import Lines
from chargen.errors import ChargenError

APPLICATION_ID = 0x43686172  # "Char": what marks an SQLite file as a chargen campaign
SCHEMA_VERSION = 2
BUSY_SECONDS = 60.0  # how long a run waits for another run's chunk before giving up
CHUNK = 2000  # characters per transaction at most
CHUNK_SECONDS = 0.25  # and the longest a chunk holds the write lock (another run waits)

# The first schema, as version 1 files have it (tests build one to migrate it). One
# index beside the rows' own: every index costs each stored character, and a list by
# tag or a run's removal reads the table once.
SCHEMA_V1 = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    system TEXT NOT NULL,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    batch_seed INTEGER NOT NULL,
    count INTEGER NOT NULL,
    locale TEXT,
    tables TEXT NOT NULL,
    version TEXT NOT NULL,
    tag TEXT
);
CREATE TABLE characters (
    id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL REFERENCES runs(id),
    at TEXT NOT NULL,
    system TEXT NOT NULL,
    kind TEXT NOT NULL,
    template TEXT,
    name TEXT NOT NULL,
    seed INTEGER NOT NULL,
    tag TEXT,
    json TEXT NOT NULL
);
CREATE UNIQUE INDEX character_names ON characters(system, name);
"""


def _v1_to_v2(db) -> None:
    """Version 2: each character's recipe (the command that makes it again) and each
    run's stream variants, filled in for what version 1 stored."""
    db.execute("ALTER TABLE characters ADD COLUMN recipe TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE runs ADD COLUMN variants TEXT NOT NULL DEFAULT '{}'")
    runs = {
        row[0]: (row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]))
        for row in db.execute("SELECT id, system, kind, options, locale, tables FROM runs")
    }
    rows = db.execute("SELECT id, run, seed FROM characters").fetchall()
    for cid, run, seed in rows:
        system, kind, options, locale, tables = runs[run]
        db.execute(
            "UPDATE characters SET recipe = ? WHERE id = ?",
            (recipe(system, kind, seed, options, locale, tables), cid),
        )


# MIGRATIONS[v] takes a file from version v to v + 1, inside one transaction.
MIGRATIONS = {1: _v1_to_v2}


class CampaignError(ChargenError):
    """A campaign file that cannot be used: exit 2, and the file is left as it was.
    `damaged`: SQLite found the file corrupt, so nothing more is written to it."""

    def __init__(self, text: str, damaged: bool = False) -> None:
        super().__init__(text)
        self.damaged = damaged


def _is_damage(exc: Exception) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    return "CORRUPT" in name or "NOTADB" in name or "malformed" in text or "not a database" in text


def recipe(
    system_id: str,
    kind: str,
    seed: int,
    options: dict[str, Any],
    locale: str | None = None,
    tables: list[str] | None = None,
    variants: dict[str, int] | None = None,
) -> str:
    """The command that makes a stored character again, alone (for rows stored before
    characters carried their recipe)."""
    from chargen import recipe as recipes
    from chargen.systems import available, load

    if system_id not in available():
        return f"chargen {system_id} {kind} --seed {seed}"
    made = recipes.build(
        load(system_id), kind, kind, options, locale, tuple(tables or ()), variants
    )
    return made._replace(seed=seed).text()


# -- opening a file --------------------------------------------------------


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else text[:197] + "..."


def _check_header(path: Path) -> bool:
    """Refuse what is plainly not a whole SQLite file before SQLite sees it; True
    when the file is empty (a campaign to create)."""
    shown = _shown(path)
    try:
        size = path.stat().st_size
        if size == 0:
            return True
        with open(path, "rb") as handle:
            head = handle.read(100)
    except OSError as exc:
        raise CampaignError(f"cannot read campaign {shown}: {exc.strerror}") from None
    if not head.startswith(b"SQLite format 3\x00"):
        raise CampaignError(f"{shown} is not a chargen campaign (it is not an SQLite database)")
    if len(head) < 100:
        raise CampaignError(f"campaign {shown} is damaged: it is cut short ({size} bytes)")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    wal = Path(f"{path}-wal")
    pending = wal.exists() and wal.stat().st_size > 0  # pages not yet in the file itself
    if not pending and page >= 512 and size % page:
        raise CampaignError(
            f"campaign {shown} is damaged: {size} bytes is not a whole number of "
            f"{page}-byte pages (cut short?)"
        )
    if not pending and head[24:28] == head[92:96] and pages * page > size:
        raise CampaignError(
            f"campaign {shown} is damaged: it is cut short ({size} bytes of "
            f"{pages * page}); `chargen campaign check` says more"
        )
    return False


def _reason(exc: Exception, shown: str) -> str:
    """What an sqlite3 error means for the user, in a sentence."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    if "FULL" in name or "full" in text:
        return f"cannot write campaign {shown}: the disk is full ({text})"
    if "READONLY" in name or "readonly" in text:
        return f"cannot write campaign {shown}: it is read-only"
    if "CORRUPT" in name or "malformed" in text:
        return f"campaign {shown} is damaged ({text}); `chargen campaign check` says more"
    if "NOTADB" in name or "not a database" in text:
        return f"{shown} is not a chargen campaign, or is damaged ({text})"
    if "BUSY" in name or "LOCKED" in name or "locked" in text:
        return f"campaign {shown} is locked: another run held it over {BUSY_SECONDS:.0f} s ({text})"
    if "IOERR" in name or "disk I/O" in text:
        return f"cannot write campaign {shown}: {text} (a full disk or a file size limit?)"
    if "CANTOPEN" in name or "unable to open" in text:
        return f"cannot open campaign {shown}: {text}"
    return f"campaign {shown}: {text}"


class Campaign:
    """An open campaign file (`open_campaign`)."""

    def __init__(self, db, path: Path) -> None:
        self.db, self.path, self.shown = db, path, _shown(path)

    def error(self, exc: Exception) -> CampaignError:
        return CampaignError(_reason(exc, self.shown), _is_damage(exc))

    def close(self) -> None:
        import sqlite3

        try:
            if self.db.in_transaction:
                self.db.rollback()
            self.db.close()
        except sqlite3.Error:
            pass

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what generating commands use

    def names(self, system: str) -> CampaignNames:
        return CampaignNames(self, system)

    def recorder(self, run: dict[str, Any]) -> Recorder:
        return Recorder(self, run)

    # -- what `chargen campaign` reads

    def select(self, where: Selection, columns: str = "*") -> Iterator[Any]:
        sql, params = where.sql()
        try:
            rows = self.db.execute(f"SELECT {columns} FROM characters{sql} ORDER BY id", params)
            # (a loop, not `yield from`: closing the generator after the database, when the
            # reader went away, must not close the cursor of a closed database)
            for row in rows:  # noqa: UP028
                yield row
        except _sqlite_error() as exc:
            raise self.error(exc) from None

    def find(self, key: str, system: str | None = None) -> Any:
        """One character by its id or its name (within `system`, when given)."""
        query = "SELECT * FROM characters WHERE "
        if key.isdigit():
            rows = self._all(query + "id = ?", (int(key),))
        else:
            rows = self._all(
                query + "name = ?" + (" AND system = ?" if system else ""),
                (key, system) if system else (key,),
            )
            if not rows:
                rows = self._all(
                    query + "name LIKE ? ESCAPE '\\'" + (" AND system = ?" if system else ""),
                    (_like(key),) + ((system,) if system else ()),
                )
        if not rows:
            raise CampaignError(f"campaign {self.shown} holds no character '{key}'")
        if len(rows) > 1:
            found = ", ".join(f"{r['id']} ({r['system']}: {r['name']})" for r in rows[:10])
            raise CampaignError(
                f"'{key}' names {len(rows)} characters of campaign {self.shown}: {found}"
                f"{', ...' if len(rows) > 10 else ''}; give the id (or --system)"
            )
        return rows[0]

    def run(self, run_id: int) -> Any:
        return self._all("SELECT * FROM runs WHERE id = ?", (run_id,))[0]

    def _all(self, sql: str, params: tuple = ()) -> list:
        try:
            return self.db.execute(sql, params).fetchall()
        except _sqlite_error() as exc:
            raise self.error(exc) from None

    def forget(self, ids: list[int]) -> int:
        """Remove these characters (all or none) and free their names."""
        unique = sorted(set(ids))
        missing = []
        try:
            self.db.execute("BEGIN IMMEDIATE")
            for cid in unique:
                if self.db.execute("DELETE FROM characters WHERE id = ?", (cid,)).rowcount == 0:
                    missing.append(cid)
            if missing:
                self.db.rollback()
                raise CampaignError(
                    f"campaign {self.shown} holds no character "
                    + ", ".join(map(str, missing))
                    + ": nothing forgotten"
                )
            self.db.execute(
                "DELETE FROM runs WHERE id NOT IN (SELECT DISTINCT run FROM characters)"
            )
            self.db.commit()
        except _sqlite_error() as exc:
            raise self.error(exc) from None
        return len(unique)

    def forget_run(self, run_id: int) -> int:
        """Remove every character of one run (what a failed run may have left)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            done = self.db.execute("DELETE FROM characters WHERE run = ?", (run_id,)).rowcount
            self.db.execute("DELETE FROM runs WHERE id = ?", (run_id,))
            self.db.commit()
        except _sqlite_error() as exc:
            raise self.error(exc) from None
        if not done:
            raise CampaignError(f"campaign {self.shown} holds no character of run {run_id}")
        return done

    def stats(self) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT system, kind, tag, COUNT(*) AS n FROM characters "
            "GROUP BY system, kind, tag ORDER BY system, kind, tag IS NOT NULL, tag"
        )
        return [{"system": r[0], "kind": r[1], "tag": r[2], "count": r[3]} for r in rows]

    def check(self) -> tuple[int, list[str]]:
        """(characters, problems): SQLite's own integrity check, then every stored
        character against its columns, its run and the name rule."""
        problems: list[str] = []
        try:
            for (line,) in self.db.execute("PRAGMA integrity_check"):
                if line != "ok":
                    problems.append(f"integrity: {line}")
            for row in self.db.execute("PRAGMA foreign_key_check"):
                problems.append(f"character row {row[1]} names run {row[2]}, which is gone")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                problems.append(f"schema version {version}, expected {SCHEMA_VERSION}")
            count = self.db.execute("SELECT COUNT(*) FROM characters").fetchone()[0]
            for row in self.db.execute(
                "SELECT id, system, kind, template, name, seed, recipe, json FROM characters"
            ):
                problems += _row_problems(row)
            for system, name, n in self.db.execute(
                "SELECT system, name, COUNT(*) FROM characters GROUP BY system, name "
                "HAVING COUNT(*) > 1"
            ):
                problems.append(f"{system}: the name {name!r} is given {n} times")
        except _sqlite_error() as exc:
            problems.append(_reason(exc, self.shown))
            count = -1
        return count, problems


def _row_problems(row) -> list[str]:
    cid, system, kind, template, name, seed, made_by, text = row
    try:
        char = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        return [f"character {cid}: its JSON does not parse ({exc})"]
    if not isinstance(char, dict):
        return [f"character {cid}: its JSON is not an object"]
    wrong = [
        key
        for key, value in (
            ("system", system),
            ("kind", kind),
            ("template", template),
            ("name", name),
            ("seed", seed),
            ("recipe", made_by),
        )
        if char.get(key, made_by if key == "recipe" else None) != value
    ]
    return [f"character {cid}: its JSON and its columns differ in {', '.join(wrong)}"] * bool(wrong)


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _sqlite_error():
    import sqlite3

    return sqlite3.Error


def open_campaign(path: str | os.PathLike, write: bool = True) -> Campaign:
    """The campaign at `path`, checked and migrated to this version's schema; with
    `write`, created when the file does not exist (or is empty)."""
    import sqlite3

    file = Path(path)
    shown = _shown(file)
    if str(path) == "":
        raise CampaignError("--campaign needs a file name")
    if file.is_dir():
        raise CampaignError(f"campaign {shown} is a folder, not a file")
    exists = file.exists()
    if not exists and not write:
        raise CampaignError(f"no campaign {shown}: a generating command with --campaign makes it")
    if not exists and not file.parent.is_dir():
        raise CampaignError(f"cannot make campaign {shown}: folder {file.parent} does not exist")
    empty = _check_header(file) if exists else True
    if exists and write and not os.access(file, os.W_OK):
        raise CampaignError(f"cannot write campaign {shown}: it is read-only")
    readonly = exists and not os.access(file, os.W_OK)
    mode = "ro" if readonly else ("rw" if exists else "rwc")
    from urllib.parse import quote

    try:
        db = sqlite3.connect(
            f"file:{quote(str(file.resolve()))}?mode={mode}",
            uri=True,
            timeout=BUSY_SECONDS,
            isolation_level=None,  # transactions are begun and ended here, explicitly
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise CampaignError(_reason(exc, shown)) from None
    db.row_factory = sqlite3.Row
    campaign = Campaign(db, file)
    try:
        _ready(campaign, empty, write and not readonly, not readonly)
    except sqlite3.Error as exc:
        campaign.close()
        raise campaign.error(exc) from None
    except BaseException:
        campaign.close()
        raise
    return campaign


def _ready(campaign: Campaign, empty: bool, create: bool, writable: bool) -> None:
    """Check what the file is; make the schema in a new one (`create`), migrate an
    old one (when the file is `writable`, even for a command that only reads)."""
    db, shown = campaign.db, campaign.shown
    # one read, so another process making the file at this moment is seen whole or not
    app, version, objects = db.execute(
        "SELECT (SELECT * FROM pragma_application_id), (SELECT * FROM pragma_user_version), "
        "(SELECT COUNT(*) FROM sqlite_master)"
    ).fetchone()
    if app != APPLICATION_ID:
        if not (empty and objects == 0 and version == 0):
            raise CampaignError(
                f"{shown} is not a chargen campaign (an SQLite database of something else): "
                "it is left alone"
            )
        if not create:
            raise CampaignError(f"{shown} is empty: a generating command with --campaign fills it")
        _create(db)
        version = SCHEMA_VERSION
    if version > SCHEMA_VERSION:
        raise CampaignError(
            f"campaign {shown} has schema version {version}, newer than this chargen's "
            f"{SCHEMA_VERSION}: upgrade chargen to use it (the file is left alone)"
        )
    if version < SCHEMA_VERSION:
        if not writable:
            raise CampaignError(
                f"campaign {shown} has schema version {version} and is read-only: "
                f"this chargen needs version {SCHEMA_VERSION} and cannot migrate it"
            )
        _migrate(db)
    if writable and db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")  # WAL: a commit survives a crash of chargen
    db.execute("PRAGMA foreign_keys = ON")


def _create(db) -> None:
    """The schema of a new file: made whole in one transaction (another process making
    the same file at once finds it made)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
            db.commit()
            return
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for statement in SCHEMA_V1.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        _upgrade(db)
        db.commit()
    except BaseException:
        db.rollback()
        raise


def _migrate(db) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        _upgrade(db)
        db.commit()
    except BaseException:
        db.rollback()
        raise


def _upgrade(db) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](db)
        version += 1
        db.execute(f"PRAGMA user_version = {version}")


# -- what a run stores ------------------------------------------------------


class CampaignNames:
    """The names a campaign holds for one system, for the engine's UniqueNames: asked
    inside the Recorder's transaction, so it sees every name stored so far, this
    run's and every other process's."""

    def __init__(self, campaign: Campaign, system: str) -> None:
        self.campaign, self.system = campaign, system
        self._execute = campaign.db.execute

    def taken(self, name: str) -> bool:
        try:
            return (
                self._execute(
                    "SELECT 1 FROM characters WHERE system = ? AND name = ?", (self.system, name)
                ).fetchone()
                is not None
            )
        except _sqlite_error() as exc:
            raise self.campaign.error(exc) from None


INSERT = (
    "INSERT INTO characters (run, at, system, kind, template, name, seed, tag, recipe, json) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Recorder:
    """Stores a run's characters as they pass (`wrap`), in chunked transactions.

    `run` holds what regenerates them: system, kind, options, batch_seed, count,
    locale, tables (the overlay folders), variants, version, tag. The caller ends
    with `finish()` (all stored) or, on any error or interrupt, `abort()` (nothing
    of the run stays)."""

    def __init__(self, campaign: Campaign, run: dict[str, Any]) -> None:
        self.campaign, self.db, self.run = campaign, campaign.db, run
        self.run_id: int | None = None
        self.stored = 0

    def _begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        if self.run_id is None:
            run = self.run
            self.run_id = self.db.execute(
                "INSERT INTO runs (at, system, kind, options, batch_seed, count, locale, "
                "tables, version, tag, variants) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    _now(),
                    run["system"],
                    run["kind"],
                    json.dumps(run["options"], ensure_ascii=False, sort_keys=True),
                    run["batch_seed"],
                    run["count"],
                    run.get("locale"),
                    json.dumps(run.get("tables") or [], ensure_ascii=False),
                    run["version"],
                    run.get("tag"),
                    json.dumps(run.get("variants") or {}, sort_keys=True),
                ),
            ).lastrowid

    def wrap(self, items: Iterable[dict]) -> Iterator[dict]:
        """Pass the characters through, each stored before it is passed on."""
        try:
            yield from self._wrap(items)
        except _sqlite_error() as exc:
            raise self.campaign.error(exc) from None

    def _wrap(self, items: Iterable[dict]) -> Iterator[dict]:
        db, run = self.db, self.run
        execute, line = db.execute, Lines().line
        system, kind, tag = run["system"], run["kind"], run.get("tag")
        it = iter(items)
        clock = time.monotonic
        while True:
            self._begin()
            at = _now()
            deadline = clock() + CHUNK_SECONDS
            made = 0
            for char in it:
                seed = char["seed"]
                execute(
                    INSERT,
                    (
                        self.run_id,
                        at,
                        system,
                        kind,
                        char.get("template"),
                        char["name"],
                        seed,
                        tag,
                        char["recipe"],
                        line(char)[:-1],
                    ),
                )
                yield char
                made += 1
                if made >= CHUNK or (made & 31 == 0 and clock() > deadline):
                    break
            else:
                db.commit()
                self.stored += made
                return
            db.commit()
            self.stored += made

    def finish(self) -> None:
        """Commit what is in flight (the reader stopped early, a closed pipe)."""
        try:
            if self.db.in_transaction:
                self.db.commit()
        except _sqlite_error() as exc:
            raise self.campaign.error(exc) from None

    def abort(self, cause: BaseException | None = None) -> None:
        """Roll the chunk in flight back and remove what the run stored before it (but
        write nothing more to a file SQLite found damaged)."""
        import sqlite3

        try:
            if self.db.in_transaction:
                self.db.rollback()
            if self.run_id is None or getattr(cause, "damaged", False):
                return
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM characters WHERE run = ?", (self.run_id,))
            self.db.execute("DELETE FROM runs WHERE id = ?", (self.run_id,))
            self.db.commit()
        except sqlite3.Error as exc:
            raise CampaignError(
                f"{_reason(exc, self.campaign.shown)}; the {self.stored:,} characters this "
                f"run stored before it could not be removed (the file is whole): "
                f"`chargen campaign forget --run {self.run_id}` removes them once there is room"
            ) from None


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# -- selections ----------------------------------------------------------------


class Selection:
    """Which characters `list` and `export` take: every filter given must hold."""

    def __init__(
        self,
        ids: Iterable[int] = (),
        system: str | None = None,
        kind: str | None = None,
        template: str | None = None,
        tag: str | None = None,
        name: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> None:
        self.ids = list(ids)
        self.system, self.kind, self.template, self.tag = system, kind, template, tag
        self.name, self.since, self.until = name, since, until

    def sql(self) -> tuple[str, tuple]:
        terms, params = [], []
        if self.ids:
            terms.append(f"id IN ({', '.join('?' * len(self.ids))})")
            params += self.ids
        for column in ("system", "kind", "template", "tag"):
            value = getattr(self, column)
            if value is not None:
                terms.append(f"{column} = ?")
                params.append(value)
        if self.name is not None:
            terms.append("name LIKE ? ESCAPE '\\'")
            params.append(_like(self.name))
        if self.since is not None:
            terms.append("at >= ?")
            params.append(self.since)
        if self.until is not None:
            terms.append("at < ?")
            params.append(_day_after(self.until))
        return (" WHERE " + " AND ".join(terms) if terms else ""), tuple(params)


def day(text: str) -> str:
    """A date given as YYYY-MM-DD (or a full UTC time), checked."""
    import datetime

    try:
        if len(text) == 10:
            datetime.date.fromisoformat(text)
        else:
            datetime.datetime.fromisoformat(text.rstrip("Z"))
    except ValueError:
        raise ChargenError(f"'{text}' is not a date: give YYYY-MM-DD") from None
    return text


def _day_after(text: str) -> str:
    """`--until 2026-12-02` takes that whole day."""
    import datetime

    if len(text) == 10:
        return (datetime.date.fromisoformat(text) + datetime.timedelta(days=1)).isoformat()
    return text


def character(row) -> dict:
    """A stored character as the run made it (a damaged row is a CampaignError)."""
    try:
        char = json.loads(row["json"])
    except (ValueError, TypeError, RecursionError):
        char = None
    if not isinstance(char, dict) or not all(k in char for k in ("system", "kind", "name")):
        which = f"character {row['id']}" if "id" in row.keys() else "a character"  # noqa: SIM118 (a Row)
        raise CampaignError(
            f"the campaign's {which} is stored damaged (its JSON is no character): "
            "chargen campaign check says more"
        )
    return char


def tables_of(campaign: Campaign, row) -> list[str]:
    """The overlay folders the character was drawn from."""
    return json.loads(campaign.run(row["run"])["tables"])
