"""The compiled enumeration of a baccarat banque coup (private to :mod:`toolkit.games.banque`).

Every deal of the three hands (each as an unordered pair of values), then
the right hand's third card, the left hand's and Banker's, with float64
weights; :func:`enumerate_banque` adds them into the arrays of a
:class:`~toolkit.games.banque.BanqueTable`.  Columns of a hand: 0..9 its
third card, 10 it stood (:data:`~toolkit.coup.step.PLAYER_STOOD`), 11 it had a
natural (:data:`~toolkit.games.banque.BANQUE_NATURAL`).
"""

from __future__ import annotations

import numba

__all__ = ["enumerate_banque"]


@numba.njit(cache=True)
def _deal_pair(counts, total, i, j, replacement):  # pragma: no cover - compiled
    """Probability that the next two cards are the values ``{i, j}``, in either order."""
    if total < 2:
        return 0.0
    if replacement:
        p = counts[i] / total * counts[j] / total
    elif i == j:
        p = counts[i] / total * (counts[i] - 1) / (total - 1)
    else:
        p = counts[i] / total * counts[j] / (total - 1)
    return 2.0 * p if i != j else p


@numba.njit(cache=True)
def _result(banker, player):  # pragma: no cover - compiled
    if banker > player:
        return 0
    if player > banker:
        return 1
    return 2


@numba.njit(cache=True)
def _third_cards(counts, total, replacement, p_right, p_left, y, tr, tl, tb, w, table):  # pragma: no cover - compiled
    """Add one deal's weight ``w`` into ``table``, over the three third cards, and restore ``counts``.

    ``p_right``/``p_left``: the two hands' probabilities of drawing; ``y``:
    Banker's hand; ``tr``, ``tl``, ``tb``: the right, left and Banker totals.
    """
    # right hand: columns 0..9 (drew that card), 10 stood, 11 natural
    for rc in range(12):
        if tr >= 8:
            if rc != 11:
                continue
            wr = 1.0
            fr = tr
        elif rc == 11:
            continue
        elif rc == 10:
            wr = 1.0 - p_right
            fr = tr
        else:
            if total < 1:
                continue
            wr = p_right * counts[rc] / total
            fr = (tr + rc) % 10
        if wr == 0.0:
            continue
        if rc < 10 and not replacement:
            counts[rc] -= 1
            total -= 1
        for lc in range(12):
            if tl >= 8:
                if lc != 11:
                    continue
                wl = 1.0
                fl = tl
            elif lc == 11:
                continue
            elif lc == 10:
                wl = 1.0 - p_left
                fl = tl
            else:
                if total < 1:
                    continue
                wl = p_left * counts[lc] / total
                fl = (tl + lc) % 10
            if wl == 0.0:
                continue
            if lc < 10 and not replacement:
                counts[lc] -= 1
                total -= 1
            base = w * wr * wl
            # Banker stands
            res_r = 1 if tr >= 8 else _result(tb, fr)
            res_l = 1 if tl >= 8 else _result(tb, fl)
            table[y, rc, lc, 0, res_r, res_l] += base
            # Banker draws
            if total >= 1:
                for e in range(10):
                    if counts[e] == 0:
                        continue
                    fb = (tb + e) % 10
                    res_r = 1 if tr >= 8 else _result(fb, fr)
                    res_l = 1 if tl >= 8 else _result(fb, fl)
                    table[y, rc, lc, 1, res_r, res_l] += base * counts[e] / total
            if lc < 10 and not replacement:
                counts[lc] += 1
                total += 1
        if rc < 10 and not replacement:
            counts[rc] += 1
            total += 1


@numba.njit(cache=True)
def enumerate_banque(n, replacement, hands, totals, right, left, table, settled):  # pragma: no cover - compiled
    """Add every banque deal's weight into ``table`` and ``settled`` (see :class:`toolkit.games.banque.BanqueTable`).

    ``n``: the shoe, 10 counts by value; ``hands``/``totals``: the 55 hands and
    their totals; ``right``/``left``: each hand's probability of drawing by hand.
    Hands are dealt as unordered pairs, then the third cards in order.
    """
    counts = n.copy()
    total = counts.sum()
    for r in range(55):
        ri, rj = hands[r, 0], hands[r, 1]
        pr = _deal_pair(counts, total, ri, rj, replacement)
        if pr == 0.0:
            continue
        if not replacement:
            counts[ri] -= 1
            counts[rj] -= 1
            total -= 2
        for lh in range(55):
            li, lj = hands[lh, 0], hands[lh, 1]
            plh = _deal_pair(counts, total, li, lj, replacement)
            if plh == 0.0:
                continue
            if not replacement:
                counts[li] -= 1
                counts[lj] -= 1
                total -= 2
            for y in range(55):
                yi, yj = hands[y, 0], hands[y, 1]
                py = _deal_pair(counts, total, yi, yj, replacement)
                if py == 0.0:
                    continue
                w = pr * plh * py
                tr, tl, tb = totals[r], totals[lh], totals[y]
                if tb >= 8:
                    settled[_result(tb, tr), _result(tb, tl)] += w
                    continue
                if tr >= 8 and tl >= 8:
                    settled[1, 1] += w
                    continue
                if not replacement:
                    counts[yi] -= 1
                    counts[yj] -= 1
                    total -= 2
                _third_cards(counts, total, replacement, right[r], left[lh], y, tr, tl, tb, w, table)
                if not replacement:
                    counts[yi] += 1
                    counts[yj] += 1
                    total += 2
            if not replacement:
                counts[li] += 1
                counts[lj] += 1
                total += 2
        if not replacement:
            counts[ri] += 1
            counts[rj] += 1
            total += 2
