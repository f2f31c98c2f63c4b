"""A bet's payout expression: checked to be row by row, and evaluated once per distinct input it reads.

A bet's table (:mod:`toolkit.bets._rows`) and its prefix patterns (:mod:`toolkit.bets._prefix_patterns`) evaluate
the payout on every labelled coup: 52^4 rows for a bet on the first four cards' ranks and suits.  polars runs a
list operation (``list.sort``, ``list.eval``) row by row at tens of microseconds a row, so a payout written as one
expression over ``concat_list`` of the cards took many minutes where the same bet as SQL rows took seconds.

Here the expression's tree (its JSON form) is walked: each costly sub-expression (a list, string or struct
operation, ``list.eval``) that reads fewer fields than the node above it is evaluated once over the *distinct*
values of the fields it reads (the 13^4 rank tuples of a poker hand, not the 52^4 cards) and joined back as a
column; the payout itself is then evaluated once over the distinct rows of the fields it reads.  Within a costly
part, its costly sub-parts are remembered too, so one two parts share (a hand's count of distinct ranks) is
computed once; a ``list.sort`` of integer lists all of one length is done by numpy (:func:`_sorted_lists`).  An
expression with no costly part is evaluated as it stands.

That is exact only for an expression whose value on a coup depends on that coup's fields alone.  So an
expression may use (:func:`check_rowwise`): the fields, literals, arithmetic, comparisons and logic, ``when/then/
otherwise``, casts, ``is_in``, ``is_between``, ``is_null``, ``fill_null`` with a value, ``abs``, ``round``,
``clip``, ``pow``, ``sign``, ``replace``, ``to_physical``, the horizontal ``max/min/sum/any/all``,
``concat_list`` and every ``list.*`` (bar ``sample`` and ``shuffle``), ``str.*``, ``struct``; and anything inside
``list.eval`` (it runs within one coup's list).  Whatever mixes coups (an aggregation such as ``sum`` or
``n_unique`` of a column, ``over``, ``shift``, ``cum_sum``, ``diff``, ``rank``, ``sort``, ``filter``, ``unique``,
``is_duplicated``, random sampling) is refused in one line naming it.
"""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import polars as pl

__all__ = ["check_rowwise", "evaluate_distinct"]

#: Functions (by their name in the expression's JSON) that compute a coup's value from that coup alone.
_ROWWISE = frozenset(
    {
        "ToPhysical",
        "FillNull",
        "MaxHorizontal",
        "MinHorizontal",
        "SumHorizontal",
        "MeanHorizontal",
        "Abs",
        "Negate",
        "Sign",
        "Sqrt",
        "Floor",
        "Ceil",
        "Round",
        "Clip",
        "Pow",
        "AsStruct",
        "Replace",
        "ReplaceStrict",
        "Coalesce",
        "ListExpr",
        "StringExpr",
        "StructExpr",
        "ArrayExpr",
    }
)
#: Within ``Boolean``: the row-by-row tests (``Any``, ``All``, ``IsUnique``, ``IsDuplicated``, ... mix coups).
_ROWWISE_BOOLEAN = frozenset(
    {
        "Not",
        "IsNull",
        "IsNotNull",
        "IsIn",
        "IsBetween",
        "IsNan",
        "IsNotNan",
        "IsFinite",
        "IsInfinite",
        "AnyHorizontal",
        "AllHorizontal",
    }
)
#: Within ``ListExpr``: the ones that draw at random.
_RANDOM_LIST = frozenset({"Sample", "Shuffle"})
#: Functions worth evaluating once per distinct input (polars runs them row by row, or they build lists).
_COSTLY = frozenset({"ListExpr", "StringExpr", "StructExpr", "ArrayExpr", "AsStruct", "Replace", "ReplaceStrict"})


def _name(function: Any) -> tuple[str, str]:
    """A function node's name and, for a namespace (``ListExpr``, ``Boolean``), its member's."""
    if isinstance(function, str):
        return function, ""
    outer = next(iter(function))
    inner = function[outer]
    return outer, inner if isinstance(inner, str) else next(iter(inner)) if isinstance(inner, dict) else ""


def _refused(node: Any) -> str | None:
    """The first operation of the tree that mixes coups (its polars name), or None."""
    if not isinstance(node, dict):
        return None
    (kind, body), *_ = node.items()
    if kind in ("Column", "Literal"):
        return None
    if kind == "Eval":  # list.eval: its expression runs within one coup's list
        return _refused(body["expr"])
    if kind == "Function":
        outer, inner = _name(body["function"])
        if outer == "Boolean" and inner not in _ROWWISE_BOOLEAN:
            return inner or outer
        if outer == "ListExpr" and inner in _RANDOM_LIST:
            return f"list.{inner.lower()}"
        if outer not in _ROWWISE and outer != "Boolean":
            return outer
        return next((r for r in map(_refused, body["input"]) if r), None)
    if kind == "BinaryExpr":
        return _refused(body["left"]) or _refused(body["right"])
    if kind == "Ternary":
        return _refused(body["predicate"]) or _refused(body["truthy"]) or _refused(body["falsy"])
    if kind == "Cast":
        return _refused(body["expr"])
    if kind == "Alias":
        return _refused(body[0])
    if kind == "Agg" and isinstance(body, dict):  # an aggregation: name it (Mean, Sum, NUnique, ...)
        return next(iter(body))
    return kind


def _tree(expr: pl.Expr) -> dict:
    return json.loads(expr.meta.serialize(format="json"))


def _expr(tree: dict) -> pl.Expr:
    return pl.Expr.deserialize(io.StringIO(json.dumps(tree)), format="json")


def check_rowwise(expr: pl.Expr, where: str) -> None:
    """Refuse, in one line, an expression whose value on a coup may depend on other coups (see the module notes).

    >>> check_rowwise(pl.max_horizontal("player_total", "banker_total") >= 8, "bet 'x'")
    >>> check_rowwise(pl.col("player_total") > pl.col("player_total").mean(), "bet 'x'")
    Traceback (most recent call last):
    ...
    ValueError: bet 'x': a payout is computed coup by coup and may not use Mean (it mixes coups); see the bets page
    """
    refused = _refused(_tree(expr))
    if refused:
        raise ValueError(
            f"{where}: a payout is computed coup by coup and may not use {refused} (it mixes coups); see the bets page"
        )


def _columns(node: Any) -> frozenset[str]:
    if isinstance(node, dict):
        if isinstance(node.get("Column"), str):
            return frozenset((node["Column"],))
        if "Eval" in node:
            return _columns(node["Eval"]["expr"])
        return frozenset().union(*map(_columns, node.values()))
    if isinstance(node, list):
        return frozenset().union(*map(_columns, node))
    return frozenset()


def _costly(node: Any) -> bool:
    if isinstance(node, dict):
        if "Eval" in node:
            return True
        if "Function" in node and _name(node["Function"]["function"])[0] in _COSTLY:
            return True
        return any(_costly(v) for v in node.values())
    if isinstance(node, list):
        return any(_costly(v) for v in node)
    return False


def _slots(node: dict) -> list[tuple[Any, Any]]:
    """Where a node's child expressions sit, as ``(container, key)`` (not ``list.eval``'s inner expression)."""
    (kind, body), *_ = node.items()
    if kind == "Function":
        return [(body["input"], i) for i in range(len(body["input"]))]
    if kind == "BinaryExpr":
        return [(body, "left"), (body, "right")]
    if kind == "Ternary":
        return [(body, "predicate"), (body, "truthy"), (body, "falsy")]
    if kind in ("Cast", "Eval"):
        return [(body, "expr")]
    if kind == "Alias":
        return [(body, 0)]
    return []


class _Frame:
    """The rows being evaluated, with the sub-expressions computed so far as extra columns.

    ``memo`` keeps, per costly sub-expression, its value on every input met so far (over the chunks of a bet's
    table): each input is evaluated once for the whole table.
    """

    def __init__(
        self, frame: pl.DataFrame, memo: dict[str, Any], codes: dict | None = None, shared: bool = False
    ) -> None:
        self.frame = frame
        self.memo = memo
        self.added = 0
        # ``shared``: a costly part reading all its parent's fields is remembered too (the rows are distinct
        # already), so that a part two sub-expressions share (a hand's rank count, say) is computed once
        self.shared = shared
        self.codes = {} if codes is None else codes  # each column's codes, computed once (see _row_codes)

    def lower(self, node: Any) -> Any:
        """``node`` with each costly child that reads fewer fields than it replaced by a computed column."""
        if not isinstance(node, dict):
            return node
        node = json.loads(json.dumps(node))
        reads = _columns(node)
        for container, key in _slots(node):
            child = container[key]
            needs = _columns(child)
            if needs and (needs < reads or (self.shared and needs <= reads)) and _costly(child):
                name = f"__part_{self.added}"
                self.added += 1
                self.frame = self.frame.with_columns(self.remembered(child, sorted(needs)).alias(name))
                container[key] = {"Column": name}
            else:
                container[key] = self.lower(child)
        return node

    def remembered(self, node: dict, needs: list[str]) -> pl.Series:
        """``node`` on every row, computed only on the inputs not met before (by their codes, see :func:`_codes`)."""
        rows = self.frame.select(needs)
        coded = _row_codes(rows, stable=True, cache=self.codes)
        if coded is None or coded[1] > _DENSE_SPAN:  # inputs too varied to tabulate: once per distinct row here
            return once_per_distinct(node, rows, self.memo)
        key, span = coded
        signature = json.dumps(node, sort_keys=True)
        where, known = self.memo.get(signature) or (np.full(span, -1, dtype=np.int64), None)
        if len(where) < span:  # a chunk with a wider integer field: widen the table (codes are stable)
            where = np.concatenate([where, np.full(span - len(where), -1, dtype=np.int64)])
        new = np.flatnonzero(where[key] < 0)
        if len(new):
            first, _ = _distinct(key[new], span)
            inner = _Frame(rows[new[first]], self.memo, shared=True)
            lowered = inner.lower(node)  # adds the costly parts' columns to inner.frame
            computed = _value(inner.frame, lowered)
            start = 0 if known is None else len(known)
            where[key[new[first]]] = np.arange(start, start + len(computed))
            if known is not None and known.dtype != computed.dtype:  # a chunk of nulls, say: one type for both
                common = pl.concat([known.to_frame(), computed.to_frame()], how="vertical_relaxed")
                known, computed = common[: len(known), 0], common[len(known) :, 0]
            known = computed if known is None else known.append(computed)
        self.memo[signature] = (where, known)
        assert known is not None
        return known.gather(where[key])


def _value(frame: pl.DataFrame, tree: dict) -> pl.Series:
    """``tree`` on every row of ``frame``: a sort of lists of integers all of one length by numpy (polars sorts each
    list apart, tens of microseconds a row), anything else by polars."""
    function = tree.get("Function") or {}
    outer = function.get("function")
    sort = outer.get("ListExpr") if isinstance(outer, dict) else None
    sort = sort.get("Sort") if isinstance(sort, dict) else None
    column = function["input"][0].get("Column") if isinstance(sort, dict) and len(function["input"]) == 1 else None
    if isinstance(sort, dict) and sort.get("limit") is None and isinstance(column, str) and column in frame.columns:
        sorted_ = _sorted_lists(frame[column], descending=bool(sort["descending"]))
        if sorted_ is not None:
            return sorted_
    return frame.with_columns(_expr(tree).alias("__value"))["__value"]


def _sorted_lists(lists: pl.Series, descending: bool) -> pl.Series | None:
    """Each list sorted, for lists of integers without nulls all of one non-zero length; None otherwise."""
    if (
        not isinstance(lists.dtype, pl.List)
        or not lists.dtype.inner.is_integer()
        or lists.null_count()
        or not len(lists)
    ):
        return None
    lengths = lists.list.len().to_numpy()
    width = int(lengths[0])
    if not width or (lengths != width).any():  # empty, or of several lengths
        return None
    values = lists.explode()
    if values.null_count():
        return None
    table = np.sort(values.to_numpy().reshape(-1, width), axis=1)
    if descending:
        table = table[:, ::-1]
    return pl.Series("__value", np.ascontiguousarray(table)).cast(lists.dtype)


def _codes(column: pl.Series, stable: bool = False) -> np.ndarray | None:
    """Small non-negative integers, equal for equal values of ``column`` (0: null).

    ``stable``: the same value has the same code in every call (an enum's index, a boolean, a non-negative
    integer, each plus one); None for a column that has no such codes.
    """
    if isinstance(column.dtype, pl.Enum) or column.dtype == pl.Boolean:
        return (column.to_physical().cast(pl.Int64) + 1).fill_null(0).to_numpy()
    if column.dtype.is_integer():
        code = column.cast(pl.Int64)
        low = code.min()
        if stable:
            return None if low is not None and low < 0 else (code + 1).fill_null(0).to_numpy()  # type: ignore[operator]
        return (code - (low or 0) + 1).fill_null(0).to_numpy()
    if stable:
        return None
    return column.rank("dense").cast(pl.Int64).fill_null(0).to_numpy()


#: Row codes below this (and a few times the rows) are told apart by a table as long, without a sort.
_DENSE_SPAN = 2**24
#: The codes kept for an integer field between calls: its values 0 to 62 (a coup's fields are small).
_STABLE_INT_RADIX = 64
#: Rows whose codes could take this many times as many values as there are rows are evaluated as they stand.
_SPARSE = 64


def _row_codes(frame: pl.DataFrame, stable: bool = False, cache: dict | None = None) -> tuple[np.ndarray, int] | None:
    """One integer per row, equal for equal rows (nulls equal), and their bound; None past 62 bits (or, when
    ``stable``, for a column without stable codes).

    ``cache``: each column's codes by ``(name, stable)``, kept between calls on the same rows.
    """
    key = np.zeros(frame.height, dtype=np.int64)
    span = 1
    for name in frame.columns:
        column = frame[name]
        if cache is None:
            code = _codes(column, stable)
        else:
            # an enum's or a boolean's codes are the same stable or not
            same = isinstance(column.dtype, pl.Enum) or column.dtype == pl.Boolean
            slot = (name, stable or same)
            if slot not in cache:
                cache[slot] = _codes(column, stable)
            code = cache[slot]
        if code is None:
            return None
        radix = int(code.max(initial=0)) + 1
        if stable:  # the same radix in every call, so that a row's code is too
            fixed = _STABLE_INT_RADIX if column.dtype.is_integer() else 3
            fixed = len(column.dtype.categories) + 1 if isinstance(column.dtype, pl.Enum) else fixed
            if radix > fixed:
                return None
            radix = fixed
        span *= radix
        if span > 2**62:
            return None
        key = key * radix + code
    return key, span


def _distinct(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct code and, per row, the index of its code among them."""
    if span > min(_DENSE_SPAN, 4 * len(key) + 1024):
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        return first, np.asarray(inverse).ravel()
    rows = np.arange(len(key))
    first = np.full(span, -1, dtype=np.int64)
    first[key[::-1]] = rows[::-1]  # the earliest row of each code
    present = first >= 0
    index = np.cumsum(present) - 1
    return first[present], index[key]


def once_per_distinct(node: dict, frame: pl.DataFrame, memo: dict[str, Any]) -> pl.Series:
    """The expression ``node`` (a JSON tree over the columns of ``frame``) on every row, once per distinct row."""
    cache: dict = {}
    codes = _row_codes(frame, cache=cache)
    if codes is not None and codes[1] > _SPARSE * frame.height:  # rows this varied hardly repeat: do not look
        distinct, inverse = frame, None
    elif codes is None:  # too many distinct values to code: polars finds the distinct rows
        distinct = frame.unique(maintain_order=True)
        inverse = None
    else:
        first, inverse = _distinct(*codes)
        distinct = frame[first]
    if distinct.height * 2 > frame.height:  # few repeats: the distinct rows would cost more than they save
        inner = _Frame(frame, memo, cache)
        lowered = _expr(inner.lower(node))
        return inner.frame.with_columns(lowered.alias("__value"))["__value"]
    inner = _Frame(distinct, memo)
    lowered = _expr(inner.lower(node))  # adds the costly parts' columns to inner.frame
    values = inner.frame.with_columns(lowered.alias("__value"))
    if inverse is not None:
        return values["__value"].gather(inverse)
    keyed = values.select([*frame.columns, "__value"])
    return frame.join(keyed, on=frame.columns, how="left", nulls_equal=True, maintain_order="left")["__value"]


def evaluate_distinct(expr: pl.Expr, frame: pl.DataFrame, memo: dict[str, Any] | None = None) -> pl.Series:
    """``expr`` on every row of ``frame``: once per distinct row of the fields it reads, its costly parts once per
    distinct value of theirs (see the module notes); an expression with no costly part as it stands.

    ``memo``: the costly parts' values met so far, kept between calls on the chunks of one table (a fresh one
    when not given).
    """
    tree = _tree(expr)
    if not _costly(tree) or not _columns(tree):
        return frame.with_columns(expr.alias("__value"))["__value"]
    return once_per_distinct(tree, frame.select(sorted(_columns(tree))), {} if memo is None else memo)
