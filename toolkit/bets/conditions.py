"""Conditions of a pay table: SQL text read into an allow-listed tree, type-checked, then a polars expression.

A bet file comes from a stranger, so its conditions are data, not code.  A
condition is parsed by `sqlglot <https://sqlglot.com>`_ into a syntax tree, and
only these nodes are accepted:

* column references to the coup fields (:data:`toolkit.bets.fields.FIELDS`);
* literals: numbers, strings, ``TRUE`` and ``FALSE``;
* comparisons ``= <> != < <= > >=``, ``AND``, ``OR``, ``NOT``, parentheses;
* ``x [NOT] IN (literal, ...)``, ``x [NOT] BETWEEN a AND b``, ``x IS [NOT] NULL``;
* arithmetic ``+ - * / %`` and unary minus on numeric fields.

Every other node (a subquery, a function call, a cast, a second statement) is
refused with the column where it starts, before anything is evaluated; the
polars expression is then built from the tree by this module, never by
polars' SQL engine.  The tree is type-checked against the fields first:

=================  ======================================================
kind               fields, and what they may be compared with
=================  ======================================================
number             values, totals, cards per hand, cards dealt, margin: numbers,
                   arithmetic, every comparison
true/false         naturals and pairs: ``AND``/``OR``/``NOT``, ``= TRUE``
winner             ``winner``: ``=``/``<>``/``IN`` with ``'player'``, ``'banker'``, ``'tie'``
rank, suit,        ``<position>_rank`` (``'A'`` .. ``'K'``), ``<position>_suit``
colour             (``'s'``, ``'h'``, ``'d'``, ``'c'``), ``<position>_colour`` (``'red'``,
                   ``'black'``): ``=``/``<>``/``IN``, or with another field of the same kind
=================  ======================================================

A whole condition must be true or false and name at least one field.  Limits
(a condition is a line of a pay table, not a program): at most
:data:`MAX_CONDITION_CHARS` characters and :data:`MAX_DEPTH` levels of nesting.
Chains of ``AND`` / ``OR`` are built as balanced trees, so compiling takes time
linear in the length of the condition.

>>> condition("banker_two_card_total = 3 AND player_3_value = 8").meta.root_names()
['banker_two_card_total', 'player_3_value']
>>> condition("banker_total IN (SELECT x FROM read_csv('/etc/passwd'))")
Traceback (most recent call last):
...
toolkit.bets.conditions.ConditionError: column 17: a subquery is not allowed in IN (...)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
import sqlglot
from sqlglot import exp

from toolkit.bets.fields import COLOURS, FIELDS, WINNERS, field_kind, unknown_field
from toolkit.coup.cards import RANKS
from toolkit.coup.suits import SUITS

__all__ = ["MAX_CONDITION_CHARS", "MAX_DEPTH", "MAX_LITERAL", "ConditionError", "condition"]

#: The longest condition accepted, in characters.
MAX_CONDITION_CHARS = 4096
#: The largest number a condition may hold (coup fields are small integers).
MAX_LITERAL = 1e15
#: The deepest nesting of parentheses and operators accepted.
MAX_DEPTH = 64

#: The labels a field of each string kind takes.
_DOMAIN: dict[str, tuple[str, ...]] = {"winner": WINNERS, "rank": RANKS, "suit": SUITS, "colour": COLOURS}
_DESCRIBE = {
    "number": "a number",
    "bool": "true or false",
    "winner": "one of 'player', 'banker', 'tie'",
    "rank": "a rank 'A', '2', ..., '9', 'T', 'J', 'Q', 'K'",
    "suit": "a suit 's', 'h', 'd', 'c'",
    "colour": "a colour 'red' or 'black'",
    "string": "a string",
    "null": "NULL",
}


class ConditionError(ValueError):
    """A condition that is refused: the message gives the column (1-based) and the fault."""


@dataclass(frozen=True)
class _Typed:
    """A checked sub-expression: its polars expression, kind, and literal value when it is one."""

    expr: pl.Expr
    kind: str
    literal: object = None
    is_literal: bool = False
    fields: int = 0  # how many field references it holds


def _column(node: exp.Expression, text: str) -> int:
    """The 1-based column where a node starts in the text (the first token that carries a position)."""
    if isinstance(node, exp.Subquery | exp.Select):  # its opening keyword carries no position
        keyword = re.search(r"\(?\s*select\b", text, flags=re.IGNORECASE)
        if keyword:
            return keyword.start() + 1
    starts = [n.meta["start"] for n in node.walk() if isinstance(n.meta, dict) and "start" in n.meta]
    if starts:
        return min(starts) + 1
    fragment = node.sql()
    found = text.upper().find(fragment.upper()[:12]) if fragment else -1
    return found + 1 if found >= 0 else 1


def _depth(text: str) -> int:
    """The deepest parenthesis nesting, outside string literals."""
    depth = worst = 0
    quote = ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
            worst = max(worst, depth)
        elif ch == ")":
            depth -= 1
    return worst


_NAMES = {
    exp.Subquery: "a subquery",
    exp.Select: "a subquery",
    exp.Cast: "a cast",
    exp.TryCast: "a cast",
    exp.Func: "a function call",
    exp.Anonymous: "a function call",
    exp.Star: "'*'",
    exp.Placeholder: "a placeholder",
    exp.Parameter: "a parameter",
}
_COMPARE: dict[type, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    exp.EQ: lambda a, b: a == b,
    exp.NEQ: lambda a, b: a != b,
    exp.LT: lambda a, b: a < b,
    exp.LTE: lambda a, b: a <= b,
    exp.GT: lambda a, b: a > b,
    exp.GTE: lambda a, b: a >= b,
}
_ARITH: dict[type, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    exp.Add: lambda a, b: a + b,
    exp.Sub: lambda a, b: a - b,
    exp.Mul: lambda a, b: a * b,
    exp.Div: lambda a, b: a / b,
    exp.Mod: lambda a, b: a % b,
}
_SYMBOL: dict[type, str] = {exp.EQ: "=", exp.NEQ: "<>", exp.LT: "<", exp.LTE: "<=", exp.GT: ">", exp.GTE: ">="}
_SYMBOL |= {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}


def _refuse_name(node: exp.Expression) -> str:
    for cls, name in _NAMES.items():
        if isinstance(node, cls):
            return name
    return f"{type(node).__name__.lower()} ({node.sql()[:40]!r})"


class _Checker:
    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, node: exp.Expression, message: str) -> ConditionError:
        return ConditionError(f"column {_column(node, self.text)}: {message}")

    def describe(self, t: _Typed) -> str:
        if t.is_literal:
            return repr(t.literal) if t.kind != "null" else "NULL"
        return _DESCRIBE.get(t.kind, t.kind)

    def check(self, node: exp.Expression) -> _Typed:
        if isinstance(node, exp.Paren):
            return self.check(node.this)
        if isinstance(node, exp.Column):
            return self.column(node)
        if isinstance(node, exp.Literal):
            if node.is_string:
                return _Typed(pl.lit(node.this), "string", node.this, True)
            value = float(node.this) if any(c in node.this for c in ".eE") else int(node.this)
            if not abs(value) <= MAX_LITERAL:
                raise self.fail(node, f"the number {node.this} is out of range (at most {MAX_LITERAL:.0e} in size)")
            return _Typed(pl.lit(value), "number", value, True)
        if isinstance(node, exp.Boolean):
            return _Typed(pl.lit(bool(node.this)), "bool", bool(node.this), True)
        if isinstance(node, exp.Null):
            return _Typed(pl.lit(None), "null", None, True)
        if isinstance(node, exp.And | exp.Or):
            return self.logic(node)
        if isinstance(node, exp.Not):
            return self.negate(node)
        if type(node) in _COMPARE:
            return self.compare(node)
        if type(node) in _ARITH:
            return self.arith(node)
        if isinstance(node, exp.Neg):
            inner = self.check(node.this)
            self.need(node.this, inner, "number", "unary minus")
            return _Typed(-inner.expr, "number", fields=inner.fields)
        if isinstance(node, exp.In):
            return self.is_in(node)
        if isinstance(node, exp.Between):
            return self.between(node)
        if isinstance(node, exp.Is):
            return self.is_null(node)
        raise self.fail(
            node,
            f"{_refuse_name(node)} is not allowed in a condition (fields, literals, comparisons, AND/OR/NOT, "
            "IN (...), BETWEEN, IS NULL and arithmetic are)",
        )

    def column(self, node: exp.Column) -> _Typed:
        if node.table or not isinstance(node.this, exp.Identifier):
            raise self.fail(node, f"{node.sql()!r} is not a coup field (write the field's name alone)")
        name = node.name
        if name not in FIELDS and not node.this.quoted and name.lower() in FIELDS:
            name = name.lower()
        if name not in FIELDS:
            raise self.fail(node, unknown_field(name))
        return _Typed(pl.col(name), field_kind(name), fields=1)

    def need(self, node: exp.Expression, t: _Typed, kind: str, what: str) -> None:
        if t.kind != kind:
            raise self.fail(node, f"{what} needs {_DESCRIBE[kind]}, got {self.describe(t)}")

    def logic(self, node: exp.Expression) -> _Typed:
        cls = type(node)
        parts: list[exp.Expression] = []
        stack = [node]
        while stack:  # flatten the chain without recursion: a long OR is one level, not thousands
            n = stack.pop()
            while isinstance(n, exp.Paren) and isinstance(n.this, cls):
                n = n.this
            if isinstance(n, cls):
                stack.extend((n.expression, n.this))
            else:
                parts.append(n)
        word = "AND" if cls is exp.And else "OR"
        typed = []
        for p in parts:
            t = self.check(p)
            self.need(p, t, "bool", word)
            typed.append(t)
        join: Callable[[pl.Expr, pl.Expr], pl.Expr] = (lambda a, b: a & b) if cls is exp.And else (lambda a, b: a | b)
        return _Typed(_balanced([t.expr for t in typed], join), "bool", fields=sum(t.fields for t in typed))

    def negate(self, node: exp.Not) -> _Typed:
        inner = self.check(node.this)
        self.need(node.this, inner, "bool", "NOT")
        return _Typed(~inner.expr, "bool", fields=inner.fields)

    def compare(self, node: exp.Expression) -> _Typed:
        a, b = self.check(node.this), self.check(node.expression)
        symbol = _SYMBOL[type(node)]
        if "null" in (a.kind, b.kind):
            raise self.fail(node, f"'{symbol} NULL' is never true; write IS NULL or IS NOT NULL")
        equality = type(node) in (exp.EQ, exp.NEQ)
        if a.kind == b.kind == "number" or (equality and a.kind == b.kind == "bool"):
            if a.is_literal and b.is_literal:
                raise self.fail(node, "compares two constants; name a coup field")
            return _Typed(_COMPARE[type(node)](a.expr, b.expr), "bool", fields=a.fields + b.fields)
        labelled = [t for t in (a, b) if t.kind in _DOMAIN]
        other = b if labelled and labelled[0] is a else a
        if equality and labelled and (other.kind == labelled[0].kind or other.kind == "string"):
            if other.kind == "string" and other.literal not in _DOMAIN[labelled[0].kind]:
                raise self.fail(node, f"{other.literal!r} is not {_DESCRIBE[labelled[0].kind]}")
            return _Typed(_COMPARE[type(node)](a.expr, b.expr), "bool", fields=a.fields + b.fields)
        if not equality and labelled:
            raise self.fail(node, f"'{symbol}' does not apply to {_DESCRIBE[labelled[0].kind]}; use = , <> or IN")
        raise self.fail(node, f"cannot compare {self.describe(a)} with {self.describe(b)} ('{symbol}')")

    def arith(self, node: exp.Expression) -> _Typed:
        a, b = self.check(node.this), self.check(node.expression)
        symbol = _SYMBOL[type(node)]
        self.need(node.this, a, "number", f"'{symbol}'")
        self.need(node.expression, b, "number", f"'{symbol}'")
        return _Typed(_ARITH[type(node)](a.expr, b.expr), "number", fields=a.fields + b.fields)

    def is_in(self, node: exp.In) -> _Typed:
        for key in ("query", "unnest", "field"):
            if node.args.get(key) is not None:
                raise self.fail(node.args[key], f"{_refuse_name(node.args[key])} is not allowed in IN (...)")
        left = self.check(node.this)
        if left.is_literal or left.kind in ("bool", "null"):
            raise self.fail(node, f"IN needs a field or a number on its left, got {self.describe(left)}")
        items = []
        for item in node.expressions:
            t = self.check(item)
            if not t.is_literal:
                raise self.fail(item, "IN (...) takes literals only")
            fits = t.kind == left.kind == "number" or (
                left.kind in _DOMAIN and t.kind == "string" and t.literal in _DOMAIN[left.kind]
            )
            if not fits:
                raise self.fail(item, f"{self.describe(t)} in IN (...) is not {_DESCRIBE[left.kind]}")
            items.append(t.literal)
        if not items:
            raise self.fail(node, "IN () needs at least one value")
        if left.kind in _DOMAIN:  # an enum or string column compared with strings
            return _Typed(_balanced([left.expr == pl.lit(v) for v in items], lambda x, y: x | y), "bool", fields=1)
        return _Typed(left.expr.is_in(items), "bool", fields=left.fields)

    def between(self, node: exp.Between) -> _Typed:
        x, low, high = self.check(node.this), self.check(node.args["low"]), self.check(node.args["high"])
        for part, t in ((node.this, x), (node.args["low"], low), (node.args["high"], high)):
            self.need(part, t, "number", "BETWEEN")
        return _Typed((x.expr >= low.expr) & (x.expr <= high.expr), "bool", fields=x.fields + low.fields + high.fields)

    def is_null(self, node: exp.Is) -> _Typed:
        if not isinstance(node.expression, exp.Null):
            raise self.fail(node.expression, "IS takes NULL or NOT NULL only; compare with = instead")
        inner = self.check(node.this)
        return _Typed(inner.expr.is_null(), "bool", fields=inner.fields)


def _balanced(parts: list[pl.Expr], join: Callable[[pl.Expr, pl.Expr], pl.Expr]) -> pl.Expr:
    """Join expressions pairwise into a tree of depth log2(n) (a long chain is linear to build and run)."""
    while len(parts) > 1:
        parts = [join(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    return parts[0]


def condition(text: object) -> pl.Expr:
    """The polars expression of one pay-table condition, after the checks of the module notes.

    Parameters
    ----------
    text
        The condition: SQL over the coup fields, such as ``"winner = 'banker' AND banker_total = 6"``.

    Returns
    -------
    polars.Expr
        A boolean expression over the coup fields.

    Raises
    ------
    ValueError
        One line with the column and the fault, for anything outside the allowed grammar or types.
    """
    if not isinstance(text, str) or not text.strip():
        raise ConditionError(f"a condition must be a non-empty SQL expression, got {text!r}")
    if len(text) > MAX_CONDITION_CHARS:
        raise ConditionError(f"the condition holds {len(text):,} characters, more than {MAX_CONDITION_CHARS:,}")
    if _depth(text) > MAX_DEPTH:
        raise ConditionError(f"the condition nests parentheses more than {MAX_DEPTH} deep")
    try:
        trees = sqlglot.parse(text, error_level=sqlglot.ErrorLevel.RAISE)
    except sqlglot.errors.ParseError as err:
        first = err.errors[0] if err.errors else {}
        at = f"column {first['col']}: " if first.get("col") else ""
        description = str(first.get("description", err)).split(" for <class")[0]
        raise ConditionError(f"{at}cannot parse the condition: {description}") from None
    except RecursionError:
        raise ConditionError(f"the condition nests operators more than {MAX_DEPTH} deep") from None
    except sqlglot.errors.TokenError as err:
        raise ConditionError(f"cannot parse the condition: {str(err).splitlines()[0][:120]}") from None
    found = [t for t in trees if t is not None]
    if len(found) != 1:
        raise ConditionError("a condition is one expression (no ';', no second statement)")
    checker = _Checker(text)
    try:
        typed = checker.check(found[0])  # type: ignore[arg-type]  # sqlglot's parse is typed loosely
    except RecursionError:
        raise ConditionError(f"the condition nests operators more than {MAX_DEPTH} deep") from None
    if typed.kind != "bool":
        hint = " (compare it: banker_total = 6)" if typed.kind == "number" else ""
        raise ConditionError(f"a condition must be true or false, this is {checker.describe(typed)}{hint}")
    if typed.fields == 0:
        raise ConditionError("the condition names no coup field, so it is constant; name a field (see the fields)")
    return typed.expr
