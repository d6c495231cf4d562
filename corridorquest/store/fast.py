"""Fast paths for the hottest queries (a move, an authenticated request).

peewee rebuilds the SQL of every query from its expression tree; on this machine that
costs 0.3-1 ms for a row of a wide table, against ~15 µs for executing the statement.
The few queries every move runs therefore use these helpers: the SQL text is built once
per (model, clause) and cached, values go through the models' own field conversions
(`db_value` / `python_value`), and the results are ordinary model instances, so callers
cannot tell them from `Model.select()` rows. Clauses are written with `?` placeholders
and column names; on PostgreSQL `?` becomes `%s`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

import peewee as pw

from corridorquest.store.models import database

M = TypeVar("M", bound=pw.Model)
R = TypeVar("R", bound=pw.Model)

_sql_cache: dict[tuple[Any, ...], str] = {}
_fromisoformat = datetime.fromisoformat


def _db() -> pw.Database:
    db: pw.Database = database.obj
    return db


def execute(sql: str, params: Sequence[Any] = ()) -> Any:
    """Run one statement and return its cursor: `database.execute_sql`, shorter on SQLite.

    On SQLite the statement goes straight to the connection (peewee's per-statement
    bookkeeping costs about as much as executing a simple statement); errors are still
    raised as peewee's exceptions (`IntegrityError`, ...). Statements are not logged at
    DEBUG level, unlike `execute_sql`.
    """
    db = _db()
    if not isinstance(db, pw.SqliteDatabase):
        return db.execute_sql(sql, params)
    conn = db._state.conn
    if conn is None:
        conn = db.connection()
    try:
        return conn.execute(sql, params)
    except Exception:
        with pw.__exception_wrapper__:
            raise


def is_sqlite() -> bool:
    return isinstance(_db(), pw.SqliteDatabase)


def _dialect(sql: str) -> str:
    return sql if is_sqlite() else sql.replace("?", "%s")


def for_update() -> str:
    """The row-lock suffix for a SELECT of a write: `FOR UPDATE` where it exists."""
    return "FOR UPDATE" if isinstance(_db(), pw.PostgresqlDatabase) else ""


def _fields(model: type[pw.Model], names: Sequence[str] | None = None) -> list[pw.Field]:
    if names is None:
        return list(model._meta.sorted_fields)
    return [model._meta.fields[name] for name in names]


def _columns(fields: Sequence[pw.Field], alias: str) -> str:
    return ", ".join(f'{alias}."{f.column_name}"' for f in fields)


def table(model: type[pw.Model]) -> str:
    return f'"{model._meta.table_name}"'


# Field types whose database values need no conversion (SQLite and psycopg2 already
# return int / str): their `python_value` would only call int() / str() again.
_PLAIN_FIELDS = (pw.AutoField, pw.IntegerField, pw.BigIntegerField, pw.CharField, pw.TextField)

RowPlan = tuple[tuple[str, ...], tuple[tuple[int, str, Any], ...]]
_plans: dict[tuple[int, ...], RowPlan] = {}


def _is_plain(field: pw.Field) -> bool:
    if isinstance(field, pw.ForeignKeyField):
        return _is_plain(field.rel_field)
    return type(field) in _PLAIN_FIELDS


def _datetime_value(field: pw.DateTimeField) -> Any:
    """`field.python_value`, with the common case (SQLite's ISO text) parsed directly."""
    slow = field.python_value

    def convert(value: Any) -> Any:
        if type(value) is str:
            try:
                return _fromisoformat(value)
            except ValueError:
                pass
        return slow(value)

    return convert


def _converter(field: pw.Field) -> Any:
    if type(field) is pw.DateTimeField:
        return _datetime_value(field)
    if type(field) is pw.BooleanField:
        return bool
    return field.python_value


def row_plan(fields: Sequence[pw.Field]) -> RowPlan:
    """Field names, and (index, name, python_value) of the fields that need converting."""
    key = tuple(id(field) for field in fields)  # fields overload ==: never compare them
    plan = _plans.get(key)
    if plan is None:
        names = tuple(field.name for field in fields)
        converters = tuple(
            (index, field.name, _converter(field))
            for index, field in enumerate(fields)
            if not _is_plain(field)
        )
        plan = _plans[key] = (names, converters)
    return plan


def build(model: type[M], plan: RowPlan, values: Sequence[Any]) -> M:
    """A model instance (nothing dirty) from a row of database values, as peewee makes it."""
    names, converters = plan
    data = dict(zip(names, values, strict=True))
    for index, name, to_python in converters:
        value = values[index]
        if value is not None:
            data[name] = to_python(value)
    return instance(model, data)


def instance(model: type[M], data: dict[str, Any]) -> M:
    """A model instance (nothing dirty) whose field values are `data` (not copied).

    What `Model.__init__(__no_default__=1, **data)` leaves, without a setattr per field.
    """
    made = model.__new__(model)
    made.__data__ = data
    made._dirty = set()
    made.__rel__ = {}
    return made


def convert(plan: RowPlan, values: Sequence[Any]) -> list[Any]:
    """A row of database values as Python values (what the fields' `python_value` give)."""
    converted = list(values)
    for index, _, to_python in plan[1]:
        value = converted[index]
        if value is not None:
            converted[index] = to_python(value)
    return converted


_model_plans: dict[type[pw.Model], RowPlan] = {}


def model_plan(model: type[pw.Model]) -> RowPlan:
    """The plan of a row of every field of `model` (in `sorted_fields` order)."""
    plan = _model_plans.get(model)
    if plan is None:
        plan = _model_plans[model] = row_plan(model._meta.sorted_fields)
    return plan


def hydrate(model: type[M], values: Sequence[Any], fields: Sequence[pw.Field] | None = None) -> M:
    """A model instance from a row of `fields` (default: every field) values."""
    return build(model, row_plan(fields) if fields else model_plan(model), values)


def select(model: type[M], where: str, params: Sequence[Any], tail: str = "") -> list[M]:
    """`SELECT every column FROM model WHERE <where> <tail>` as model instances."""
    key = ("select", model, where, tail, type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        sql = _dialect(
            f"SELECT {_columns(_fields(model), 't')} FROM {table(model)} AS t WHERE {where} {tail}"
        )
        _sql_cache[key] = sql
    plan = model_plan(model)
    return [build(model, plan, row) for row in execute(sql, tuple(params))]


def select_with(
    model: type[M],
    related: type[R],
    join_on: str,
    where: str,
    params: Sequence[Any],
    tail: str = "",
    related_fields: Sequence[str] | None = None,
) -> list[tuple[M, R]]:
    """Rows of `model` (alias t) joined with `related` (alias r): (instance, related).

    `related_fields` limits the columns read of `related` (a partial instance).
    """
    fields = _fields(related, related_fields)
    key = ("join", model, related, join_on, where, tail, tuple(related_fields or ()), type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        columns = f"{_columns(_fields(model), 't')}, {_columns(fields, 'r')}"
        sql = _dialect(
            f"SELECT {columns} FROM {table(model)} AS t JOIN {table(related)} AS r "
            f"ON {join_on} WHERE {where} {tail}"
        )
        _sql_cache[key] = sql
    width = len(model._meta.sorted_fields)
    plan, related_plan = model_plan(model), row_plan(fields)
    return [
        (build(model, plan, row[:width]), build(related, related_plan, row[width:]))
        for row in execute(sql, tuple(params))
    ]


_INT_FIELDS = (pw.AutoField, pw.IntegerField, pw.BigIntegerField)
_STR_FIELDS = (pw.CharField, pw.TextField)


def _to_db(field: pw.Field, sqlite: bool) -> Any:
    """`field.db_value`, with the common cases short-cut (same values, fewer calls).

    On SQLite a datetime becomes `isoformat(" ")`: the text sqlite3's default datetime
    adapter would make of what `db_value` returns.
    """
    slow = field.db_value
    target = field.rel_field if isinstance(field, pw.ForeignKeyField) else field
    exact: type | None = None
    if type(target) in _INT_FIELDS:
        exact = int
    elif type(target) in _STR_FIELDS:
        exact = str
    if exact is not None:
        plain = exact
        return lambda value: value if type(value) is plain or value is None else slow(value)
    if sqlite and type(field) is pw.DateTimeField:
        return lambda value: _sqlite_text(value) if type(value) is datetime else slow(value)
    return slow


# The last datetime written and its text: a move writes `utcnow()` (one object per
# second) two or three times, and `isoformat` costs about a microsecond each time.
_last_datetime: tuple[datetime, str] = (datetime.min, datetime.min.isoformat(" "))


def _sqlite_text(value: datetime) -> str:
    global _last_datetime
    last, text = _last_datetime
    if value is not last:
        text = value.isoformat(" ")
        _last_datetime = (value, text)
    return text


def _write_sql(key: tuple[Any, ...], model: type[pw.Model], fields: Sequence[pw.Field],
               make: Any) -> tuple[str, tuple[Any, ...]]:
    """The cached (SQL, value converters) of a write; `make()` builds the SQL text."""
    cached = _write_cache.get(key)
    if cached is None:
        sqlite = is_sqlite()
        cached = _write_cache[key] = (_dialect(make()), tuple(_to_db(f, sqlite) for f in fields))
    return cached


_write_cache: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = {}


def insert(model: type[pw.Model], **values: Any) -> None:
    """INSERT one row (no id returned): `values` by field name."""
    key = ("insert", model, tuple(values), type(_db()))
    cached = _write_cache.get(key)
    if cached is None:
        fields = [model._meta.fields[name] for name in values]
        names = ", ".join(f'"{f.column_name}"' for f in fields)
        marks = ", ".join("?" for _ in fields)
        cached = _write_sql(
            key, model, fields, lambda: f"INSERT INTO {table(model)} ({names}) VALUES ({marks})"
        )
    sql, converters = cached
    params = tuple(to_db(v) for to_db, v in zip(converters, values.values(), strict=True))
    execute(sql, params)


def insert_many(model: type[pw.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """INSERT many rows, each the values of the fields `names` (one prepared statement run
    for every row: an imported game's thousands of actions in milliseconds, where
    peewee's `insert_many` builds SQL text for about 0.1 ms a value)."""
    key = ("insert", model, tuple(names), type(_db()))
    cached = _write_cache.get(key)
    if cached is None:
        fields = [model._meta.fields[name] for name in names]
        columns = ", ".join(f'"{f.column_name}"' for f in fields)
        marks = ", ".join("?" for _ in fields)
        cached = _write_sql(
            key, model, fields, lambda: f"INSERT INTO {table(model)} ({columns}) VALUES ({marks})"
        )
    sql, converters = cached
    params = [tuple(to_db(v) for to_db, v in zip(converters, row, strict=True)) for row in rows]
    db = _db()
    if not isinstance(db, pw.SqliteDatabase):
        db.cursor().executemany(sql, params)
        return
    conn = db._state.conn
    if conn is None:
        conn = db.connection()
    try:
        conn.executemany(sql, params)
    except Exception:
        with pw.__exception_wrapper__:
            raise


def _update_sql(key: tuple[Any, ...], model: type[pw.Model],
                names: Sequence[str]) -> tuple[str, tuple[Any, ...]]:
    cached = _write_cache.get(key)
    if cached is None:
        fields = [model._meta.fields[name] for name in names]
        assignments = ", ".join(f'"{f.column_name}" = ?' for f in fields)
        pk = model._meta.primary_key.column_name
        cached = _write_sql(
            key, model, fields, lambda: f'UPDATE {table(model)} SET {assignments} WHERE "{pk}" = ?'
        )
    return cached


def update(instance: pw.Model, *names: str) -> None:
    """UPDATE the named fields of `instance` (by primary key) from its current values."""
    model = type(instance)
    sql, converters = _update_sql(("update", model, names, type(_db())), model, names)
    data = instance.__data__
    params = [to_db(data.get(name)) for to_db, name in zip(converters, names, strict=True)]
    params.append(instance._pk)
    execute(sql, tuple(params))
    instance._dirty.difference_update(names)


def update_by_id(model: type[pw.Model], pk: Any, **values: Any) -> None:
    """UPDATE the named fields of the row of `model` whose primary key is `pk`."""
    names = tuple(values)
    sql, converters = _update_sql(("update", model, names, type(_db())), model, names)
    params = [to_db(v) for to_db, v in zip(converters, values.values(), strict=True)]
    params.append(pk)
    execute(sql, tuple(params))


def save(instance: pw.Model) -> None:
    """UPDATE every field of an existing row from `instance` (what `instance.save()` does)."""
    model = type(instance)
    pk = model._meta.primary_key
    data = instance.__data__
    update(instance, *[f.name for f in model._meta.sorted_fields if f is not pk and f.name in data])
