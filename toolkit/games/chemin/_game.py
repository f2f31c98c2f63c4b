"""The chemin de fer game in reduced form, its linear program and exact equilibria (private to the chemin package).

Notation (see :mod:`toolkit.games.chemin.solve` for the derivation).  Player's free
choices are ``K`` probabilities ``q_k`` of drawing at 5 (``K = 1`` when he sees
his total, ``K = 5`` when he sees his two-card hand).  Banker's information
sets ``i`` are ``(his total or hand, Player's third card or "stood")``.  With
everything else fixed, the payoff of a side when Banker takes action ``a`` (1
draw, 0 stand) in ``i`` is affine in ``q``::

    u(q, a) = (const + sum_i [a_i (alpha[i, 1] + beta[i, 1] @ q) + (1 - a_i) (alpha[i, 0] + beta[i, 0] @ q)]) / scale

with integer ``alpha``, ``beta`` and ``const`` (one set for Banker's payoff,
one for Player's; they are negatives of each other without commission).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.optimize import linprog

from toolkit.coup.rules import Tableau
from toolkit.coup.step import PLAYER_STOOD
from toolkit.games._hands import HAND_TOTALS
from toolkit.games.chemin._table import ChemTable

#: Probabilities per variable or set: a sequence (of Fractions, say) or an array.
Vector = Sequence[Any] | np.ndarray

__all__ = [
    "PURE_TOL",
    "Game",
    "banker_pure_response",
    "build_game",
    "deviation_gains",
    "exact_equilibrium",
    "is_equilibrium",
    "solve_best_response",
    "solve_bounded",
    "solve_linear",
    "solve_lp",
]

#: Probabilities within this distance of 0 or 1 count as pure when reading a floating-point solution.
PURE_TOL = 1e-7


@dataclass(frozen=True, eq=False)
class Game:
    """The reduced game of one shoe, model and commission (see the module notes)."""

    n_vars: int
    player_var: np.ndarray  # (55,) index of the free variable of each hand, -1 if forced
    info: np.ndarray  # (55, 11) Banker information set of (hand, column), -1 for naturals
    info_total: np.ndarray  # (n_info,) Banker's total
    info_col: np.ndarray  # (n_info,) Player's third card 0..9, or PLAYER_STOOD
    info_hand: np.ndarray  # (n_info,) Banker's hand (index into HANDS) or -1 when he sees his total
    free: np.ndarray  # (n_info,) bool: Banker chooses here
    forced: np.ndarray  # (n_info,) action when not free (the tableau), and the default when indifferent
    scale: int
    const_b: int
    alpha_b: np.ndarray  # (n_info, 2) object ints
    beta_b: np.ndarray  # (n_info, 2, K) object ints
    const_p: int
    alpha_p: np.ndarray
    beta_p: np.ndarray

    @property
    def n_info(self) -> int:
        return len(self.info_total)

    def trivial(self) -> np.ndarray:
        """Information sets where Banker's action changes nobody's payoff, whatever Player does."""
        db = np.any(self.beta_b[:, 1] != self.beta_b[:, 0], axis=1) | (self.alpha_b[:, 1] != self.alpha_b[:, 0])
        dp = np.any(self.beta_p[:, 1] != self.beta_p[:, 0], axis=1) | (self.alpha_p[:, 1] != self.alpha_p[:, 0])
        return ~(db | dp)

    # ------------------------------------------------------------ evaluation
    def banker_delta(self, q: Vector) -> np.ndarray:
        """Banker's gain from drawing rather than standing in each set, times ``scale``."""
        q = np.asarray(q, dtype=object)
        return (self.alpha_b[:, 1] - self.alpha_b[:, 0]) + (self.beta_b[:, 1] - self.beta_b[:, 0]) @ q

    def player_gradient(self, a: Vector) -> np.ndarray:
        """Player's gain per unit of ``q_k`` (drawing at 5 rather than standing), times ``scale``."""
        a = np.asarray(a, dtype=object)
        return a @ self.beta_p[:, 1] + (1 - a) @ self.beta_p[:, 0]

    def values(self, q: Vector, a: Vector) -> tuple:
        """(Banker's, Player's) expected payoff, as exact fractions when ``q`` and ``a`` are exact."""
        q = np.asarray(q, dtype=object)
        a = np.asarray(a, dtype=object)
        out = []
        for const, alpha, beta in (
            (self.const_b, self.alpha_b, self.beta_b),
            (self.const_p, self.alpha_p, self.beta_p),
        ):
            draw = alpha[:, 1] + beta[:, 1] @ q
            stand = alpha[:, 0] + beta[:, 0] @ q
            total = const + a @ draw + (1 - a) @ stand
            out.append(Fraction(total) / self.scale if _is_exact(total) else float(total) / self.scale)
        return tuple(out)

    def floats(self) -> dict[str, np.ndarray]:
        s = float(self.scale)
        return {
            "alpha_b": self.alpha_b.astype(float) / s,
            "beta_b": self.beta_b.astype(float) / s,
            "alpha_p": self.alpha_p.astype(float) / s,
            "beta_p": self.beta_p.astype(float) / s,
        }


def _is_exact(x: object) -> bool:
    return isinstance(x, (int, Fraction))


def _banker_info_sets(banker_sees: str) -> tuple[np.ndarray, list[int], list[int], list[int]]:
    """Banker's information sets: the set of each (hand, column), and each set's total, column and hand.

    A set's hand is -1 when Banker sees only his total.
    """
    totals = HAND_TOTALS
    info = np.full((55, 11), -1)
    keys: dict[tuple, int] = {}
    info_total: list[int] = []
    info_col: list[int] = []
    info_hand: list[int] = []
    for y in range(55):
        if not totals[y] <= 7:
            continue
        for col in range(11):
            key = (int(totals[y]), col) if banker_sees == "total" else (y, col)
            if key not in keys:
                keys[key] = len(keys)
                info_total.append(int(totals[y]))
                info_col.append(col)
                info_hand.append(-1 if banker_sees == "total" else y)
            info[y, col] = keys[key]
    return info, info_total, info_col, info_hand


def build_game(
    table: ChemTable,
    player_sees: str,
    banker_sees: str,
    commission: Fraction,
    tableau: Tableau,
    banker_options: frozenset | None,
) -> Game:
    """Reduce the exact coup table to the game's coefficients (see the module notes)."""
    totals = HAND_TOTALS
    non_natural = totals <= 7
    free_hands = [x for x in range(55) if totals[x] == 5]
    n_vars = 1 if player_sees == "total" else len(free_hands)
    player_var = np.full(55, -1)
    for k, x in enumerate(free_hands):
        player_var[x] = 0 if player_sees == "total" else k

    info, info_total, info_col, info_hand = _banker_info_sets(banker_sees)
    n_info = len(info_total)
    forced = np.array([int(tableau.banker[t][c]) for t, c in zip(info_total, info_col, strict=True)])
    if banker_options is None:
        free = np.ones(n_info, dtype=bool)
    else:
        free = np.array([(int(t), int(c)) in banker_options for t, c in zip(info_total, info_col, strict=True)])

    # Player's weights: constant part and the part proportional to q_k
    t = table.table  # (55, 55, 11, 2, 3)
    const_w = np.zeros((55, 11), dtype=np.int64)
    lin_w = np.zeros((n_vars, 55, 11), dtype=np.int64)
    for x in range(55):
        if not non_natural[x]:
            continue
        if totals[x] <= 4:
            const_w[x, :PLAYER_STOOD] = 1
        elif totals[x] >= 6:
            const_w[x, PLAYER_STOOD] = 1
        else:
            const_w[x, PLAYER_STOOD] = 1
            lin_w[player_var[x], x, :PLAYER_STOOD] = 1
            lin_w[player_var[x], x, PLAYER_STOOD] = -1
    # sums over Player's hands: (55 y, 11 col, 2 a, 3 o)
    g_const = np.einsum("xc,xycao->ycao", const_w.astype(t.dtype), t)
    g_lin = np.einsum("kxc,xycao->kycao", lin_w.astype(t.dtype), t)

    num, den = commission.numerator, commission.denominator

    def payoff(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        g = g.astype(object)
        bank = (den - num) * g[..., 0] - den * g[..., 1]
        play = den * (g[..., 1] - g[..., 0])
        return bank, play

    ab_y, ap_y = payoff(g_const)  # (55, 11, 2)
    bb_y, bp_y = payoff(g_lin)  # (K, 55, 11, 2)
    alpha_b = np.zeros((n_info, 2), dtype=object)
    alpha_p = np.zeros((n_info, 2), dtype=object)
    beta_b = np.zeros((n_info, 2, n_vars), dtype=object)
    beta_p = np.zeros((n_info, 2, n_vars), dtype=object)
    for y in range(55):
        for col in range(11):
            i = info[y, col]
            if i < 0:
                continue
            alpha_b[i] += ab_y[y, col]
            alpha_p[i] += ap_y[y, col]
            beta_b[i] += bb_y[:, y, col].T
            beta_p[i] += bp_y[:, y, col].T
    nat = table.natural.sum(axis=(0, 1)).astype(object)
    const_b = int((den - num) * nat[0] - den * nat[1])
    const_p = int(den * (nat[1] - nat[0]))
    return Game(
        n_vars=n_vars,
        player_var=player_var,
        info=info,
        info_total=np.array(info_total),
        info_col=np.array(info_col),
        info_hand=np.array(info_hand),
        free=free,
        forced=forced,
        scale=int(table.denominator) * den,
        const_b=const_b,
        alpha_b=alpha_b,
        beta_b=beta_b,
        const_p=const_p,
        alpha_p=alpha_p,
        beta_p=beta_p,
    )


# ------------------------------------------------------------------ zero-sum LP
def solve_lp(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Player's and Banker's optimal strategies of the zero-sum game, in floating point, by one LP.

    Player minimises ``const + sum_i max(D_i(q), S_i(q))`` over ``q`` in
    ``[0, 1]^K``: variables ``(q, t)``, minimise ``sum_i t_i`` subject to
    ``t_i >= D_i(q)`` and ``t_i >= S_i(q)`` for Banker's free sets (his forced
    sets add their affine payoff to the objective).  The duals of the two
    constraints of set ``i`` sum to one and are Banker's probabilities of
    drawing and standing there.
    """
    f = game.floats()
    alpha, beta = f["alpha_b"], f["beta_b"]
    k = game.n_vars
    trivial = game.trivial()
    live = np.flatnonzero(game.free & ~trivial)
    fixed = np.flatnonzero(~game.free & ~trivial)
    c = np.concatenate([beta[fixed, game.forced[fixed]].sum(axis=0), np.ones(len(live))])
    rows = []
    rhs = []
    for j, i in enumerate(live):
        for act in (1, 0):
            row = np.zeros(k + len(live))
            row[:k] = beta[i, act]
            row[k + j] = -1.0
            rows.append(row)
            rhs.append(-alpha[i, act])
    bounds = [(0.0, 1.0)] * k + [(None, None)] * len(live)
    res = linprog(
        c,
        A_ub=np.array(rows) if rows else None,
        b_ub=np.array(rhs) if rows else None,
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"linprog failed on the chemin de fer game: {res.message}")
    q = np.clip(res.x[:k], 0.0, 1.0)
    a = game.forced.astype(float).copy()
    if len(live):
        duals = -np.asarray(res.ineqlin.marginals).reshape(len(live), 2)
        a[live] = np.clip(duals[:, 0], 0.0, 1.0)
    return q, a


# -------------------------------------------------- best responses (bimatrix)
def banker_pure_response(game: Game, q: np.ndarray, tol: float = 1e-14) -> tuple[np.ndarray, np.ndarray]:
    """Banker's pure best response to ``q`` (floats) and the mask of sets where he is indifferent."""
    f = game.floats()
    delta = (f["alpha_b"][:, 1] - f["alpha_b"][:, 0]) + (f["beta_b"][:, 1] - f["beta_b"][:, 0]) @ q
    a = game.forced.astype(float).copy()
    live = game.free & ~game.trivial()
    a[live & (delta > tol)] = 1.0
    a[live & (delta < -tol)] = 0.0
    return a, live & (np.abs(delta) <= tol)


def _scan(game: Game, f: dict, q: np.ndarray, k: int) -> float:
    """Equilibrium value of ``q_k`` when the others are held and Banker best-responds (closest to the current)."""
    db = f["beta_b"][:, 1] - f["beta_b"][:, 0]
    d0 = (f["alpha_b"][:, 1] - f["alpha_b"][:, 0]) + db @ q - db[:, k] * q[k]
    s = db[:, k]
    live = game.free & ~game.trivial()
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = np.where(live & (s != 0), -d0 / s, np.nan)
    points = np.unique(roots[(roots > 0) & (roots < 1)])
    grid = np.concatenate([[0.0], points, [1.0]])
    mids = (grid[:-1] + grid[1:]) / 2
    grads = []
    for m in mids:
        a = game.forced.astype(float).copy()
        delta = d0 + s * m
        a[live & (delta > 0)] = 1.0
        a[live & (delta < 0)] = 0.0
        grads.append(a @ f["beta_p"][:, 1, k] + (1 - a) @ f["beta_p"][:, 0, k])
    eps = 1e-15
    candidates = []
    if grads[0] <= eps:
        candidates.append(0.0)
    if grads[-1] >= -eps:
        candidates.append(1.0)
    for j in range(1, len(grads)):
        lo, hi = grads[j - 1], grads[j]
        if (lo >= -eps and hi <= eps) or (lo <= eps and hi >= -eps):
            candidates.append(float(grid[j]))
    for j, gj in enumerate(grads):
        if abs(gj) <= eps:
            candidates.append(float(mids[j]))
    if not candidates:  # pragma: no cover - a 1-D game always has an equilibrium
        return float(q[k])
    return min(candidates, key=lambda v: abs(v - q[k]))


def solve_best_response(game: Game, start: np.ndarray, sweeps: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """An equilibrium of the (bimatrix) game by Banker's best responses and Player's 1-D scans.

    For each of Player's variables in turn, the others held, the equilibrium of
    the one-dimensional game is found exactly on the piecewise-constant
    gradient of Player's payoff (Banker's best response changes only where one
    of his comparisons changes sign); the sweep repeats until nothing moves.
    """
    f = game.floats()
    q = np.array(start, dtype=float)
    for _ in range(sweeps):
        old = q.copy()
        for k in range(game.n_vars):
            q[k] = _scan(game, f, q, k)
        if np.max(np.abs(q - old)) < 1e-14:
            break
    a, indifferent = banker_pure_response(game, q, tol=1e-12)
    a[indifferent] = 0.5
    return q, a


# -------------------------------------------------------------- exact solution
def solve_linear(rows: list[list[Fraction]], rhs: list[Fraction], n: int) -> list[Fraction] | None:
    """The unique solution of ``rows @ x = rhs`` in fractions, or ``None`` (inconsistent or not unique)."""
    m = [[*r, b] for r, b in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            return None
        m[r], m[pivot] = m[pivot], m[r]
        p = m[r][col]
        m[r] = [v / p for v in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                factor = m[i][col]
                m[i] = [vi - factor * vr for vi, vr in zip(m[i], m[r], strict=True)]
        pivots.append(col)
        r += 1
    if any(row[-1] != 0 for row in m[r:]):
        return None
    return [m[i][-1] for i in range(n)]


def solve_bounded(rows: list[list[Fraction]], rhs: list[Fraction], n: int) -> list[Fraction] | None:
    """A solution of ``rows @ x = rhs`` with ``0 <= x <= 1``, in fractions, or ``None``.

    The unique solution when there is one.  Otherwise (a degenerate game, e.g.
    several of Banker's sets that are copies of each other) a vertex of the
    feasible box is found in floating point by the simplex method, the
    variables at a bound are fixed there, and the others solved exactly.
    """
    unique = solve_linear(rows, rhs, n)
    if unique is not None:
        return unique if all(0 <= v <= 1 for v in unique) else None
    if not rows:
        return None
    a = np.array([[float(v) for v in r] for r in rows])
    b = np.array([float(v) for v in rhs])
    res = linprog(np.zeros(n), A_eq=a, b_eq=b, bounds=[(0.0, 1.0)] * n, method="highs-ds")
    if res.status != 0:
        return None
    x: list[Fraction | None] = [None] * n
    free = []
    for j, v in enumerate(res.x):
        if v <= PURE_TOL:
            x[j] = Fraction(0)
        elif v >= 1 - PURE_TOL:
            x[j] = Fraction(1)
        else:
            free.append(j)
    sub_rows = [[r[j] for j in free] for r in rows]
    sub_rhs = [
        b_i - sum((r[j] * xj for j in range(n) if (xj := x[j]) is not None), Fraction(0))
        for r, b_i in zip(rows, rhs, strict=True)
    ]
    sol = solve_linear(sub_rows, sub_rhs, len(free)) if free else []
    if sol is None:
        return None
    for j, v in zip(free, sol, strict=True):
        x[j] = v
    out = [v for v in x if v is not None]
    return out if len(out) == n and all(0 <= v <= 1 for v in out) else None


def exact_equilibrium(game: Game, q_hat: np.ndarray, a_hat: np.ndarray) -> tuple[list, list] | None:
    """Turn a floating-point equilibrium into an exact one, or ``None`` if that fails.

    The supports are read off the floating-point solution: the variables ``q_k``
    strictly inside ``(0, 1)`` and Banker's sets where he mixes.  Banker's
    indifference in the mixed sets fixes the interior ``q_k``; Player's
    indifference in the interior ``q_k`` fixes Banker's mixing; both are small
    linear systems solved in fractions.  The result is then checked exactly:
    every pure choice must be a best response.
    """
    k_all = range(game.n_vars)
    interior = [k for k in k_all if PURE_TOL < q_hat[k] < 1 - PURE_TOL]
    live = game.free & ~game.trivial()
    mixed = [i for i in np.flatnonzero(live) if PURE_TOL < a_hat[i] < 1 - PURE_TOL]
    q: list = [Fraction(round(float(v))) for v in q_hat]
    da = game.alpha_b[:, 1] - game.alpha_b[:, 0]
    dbeta = game.beta_b[:, 1] - game.beta_b[:, 0]
    if interior:
        rows = [[Fraction(dbeta[i, k]) for k in interior] for i in mixed]
        rhs = [
            -Fraction(da[i]) - sum((Fraction(dbeta[i, k]) * q[k] for k in k_all if k not in interior), Fraction(0))
            for i in mixed
        ]
        sol = solve_bounded(rows, rhs, len(interior))
        if sol is None:
            return None
        for k, v in zip(interior, sol, strict=True):
            q[k] = v
    elif mixed:
        return None
    delta = game.banker_delta(q)
    a: list = []
    for i in range(game.n_info):
        if not live[i]:
            a.append(Fraction(int(game.forced[i])))
        elif delta[i] > 0:
            a.append(Fraction(1))
        elif delta[i] < 0:
            a.append(Fraction(0))
        else:
            a.append(Fraction(round(float(a_hat[i]))))
    if mixed:
        # Player indifferent in every interior variable: linear in Banker's mixed probabilities
        bp1, bp0 = game.beta_p[:, 1], game.beta_p[:, 0]
        rows = [[Fraction(bp1[i, k] - bp0[i, k]) for i in mixed] for k in interior]
        rhs = []
        for k in interior:
            rest = sum(
                (a[i] * bp1[i, k] + (1 - a[i]) * bp0[i, k] for i in range(game.n_info) if i not in mixed), Fraction(0)
            )
            rest += sum((Fraction(bp0[i, k]) for i in mixed), Fraction(0))
            rhs.append(-rest)
        sol = solve_bounded(rows, rhs, len(mixed))
        if sol is None:
            return None
        for m_i, v_i in zip(mixed, sol, strict=True):
            a[m_i] = v_i
    if not is_equilibrium(game, q, a):
        return None
    return q, a


def is_equilibrium(game: Game, q: list, a: list) -> bool:
    """Exact check that ``(q, a)`` is an equilibrium: each side's choices are best responses."""
    if any(not 0 <= v <= 1 for v in list(q) + list(a)):
        return False
    delta = game.banker_delta(q)
    live = game.free & ~game.trivial()
    for i in np.flatnonzero(live):
        if (a[i] > 0 and delta[i] < 0) or (a[i] < 1 and delta[i] > 0):
            return False
    grad = game.player_gradient(a)
    return all(not ((q[k] > 0 and grad[k] < 0) or (q[k] < 1 and grad[k] > 0)) for k in range(game.n_vars))


def deviation_gains(game: Game, q: Sequence, a: Sequence) -> tuple[float, float]:
    """How much Banker and Player could gain by deviating alone (both zero at an equilibrium)."""
    qf = np.asarray([float(v) for v in q])
    af = np.asarray([float(v) for v in a])
    f = game.floats()
    delta = (f["alpha_b"][:, 1] - f["alpha_b"][:, 0]) + (f["beta_b"][:, 1] - f["beta_b"][:, 0]) @ qf
    live = game.free & ~game.trivial()
    banker_gain = float(np.sum(np.where(live, np.maximum(delta, 0) - af * delta, 0.0)))
    grad = af @ f["beta_p"][:, 1] + (1 - af) @ f["beta_p"][:, 0]
    player_gain = float(np.sum(np.maximum(grad, 0) - qf * grad))
    return banker_gain, player_gain
