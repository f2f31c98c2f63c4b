"""The information models of chemin de fer and the house rules the toolkit plays it by.

Information models (Ethier & Gámez 2013, after Kemeny & Snell 1957 and Downton & Lockwood 1975):

========  =================  ======================  ======================
model     cards dealt        Player sees             Banker sees
========  =================  ======================  ======================
``A1``    with replacement   his total               his total
``A2``    with replacement   his total               his two cards
``A3``    with replacement   his two cards           his two cards
``B1``    without            his total               his total
``B2``    without            his total               his two cards
``B3``    without            his two cards           his two cards
========  =================  ======================  ======================

A1, B2 and B3 are the models of the literature (Kemeny & Snell; Downton &
Lockwood; Ethier & Gámez); A2, A3 and B1 complete the grid by analogy.

The house rules: a shoe of six packs (:data:`CHEMIN_DECKS`: "six full
packs of cards of the same pattern are used, shuffled together", Wikipedia,
"Baccarat", chemin de fer section); what a false draw does (:data:`FALSE_DRAW_RULES`);
and, where the casino restricts Banker's choices, the two cells where he may
choose (:data:`RESTRICTED_BANKER_OPTIONS`).

>>> get_chemin_model("b2").banker_sees
'composition'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CHEMIN_DECKS",
    "CHEMIN_MODELS",
    "FALSE_DRAW_RULES",
    "RESTRICTED_BANKER_OPTIONS",
    "ChemModel",
    "get_chemin_model",
]

#: The casino's restricted Banker options: Banker chooses only at 3 against a Player third card 9
#: and at 5 against a 4, and follows the punto banco tableau everywhere else (the chemin de fer
#: tableau of the web page "Baccarat Rules", Progress Publishing Co.).
RESTRICTED_BANKER_OPTIONS: tuple[tuple[int, int], ...] = ((3, 9), (5, 4))
#: What happens after a false draw (Player drawing on 6-7 or standing on 0-4):
#: ``"void"`` the coup is void (no money changes hands); ``"penalty"`` the coup stands and the
#: false drawer also pays ``penalty`` units; ``"allowed"`` the coup stands.
FALSE_DRAW_RULES: tuple[str, ...] = ("void", "penalty", "allowed")
#: Chemin de fer's shoe: six packs of 52 cards shuffled together (the casinos' published rules, see above).
CHEMIN_DECKS = 6


@dataclass(frozen=True)
class ChemModel:
    """An information model of chemin de fer (see the module notes).

    Attributes
    ----------
    name
        ``"A1"`` ... ``"B3"``.
    replacement
        Cards dealt with replacement (the A models).
    player_sees, banker_sees
        What each side decides on: ``"total"`` or ``"composition"`` (the hand).
    source
        Where the model was studied.

    References
    ----------
    Ethier & Gámez, "A game-theoretic analysis of baccara chemin de fer", *Games* 4 (2013) 711-737.
    """

    name: str
    replacement: bool
    player_sees: str
    banker_sees: str
    source: str

    def __post_init__(self) -> None:
        for side, seen in (("player_sees", self.player_sees), ("banker_sees", self.banker_sees)):
            if seen not in ("total", "composition"):
                raise ValueError(f"ChemModel.{side} must be 'total' or 'composition', got {seen!r}")


CHEMIN_MODELS: dict[str, ChemModel] = {
    "A1": ChemModel("A1", True, "total", "total", "Kemeny & Snell (1957); Ethier & Gámez (2013)"),
    "A2": ChemModel("A2", True, "total", "composition", "by analogy with B2"),
    "A3": ChemModel("A3", True, "composition", "composition", "by analogy with B3"),
    "B1": ChemModel("B1", False, "total", "total", "by analogy with A1"),
    "B2": ChemModel("B2", False, "total", "composition", "Downton & Lockwood (1975); Ethier & Gámez (2013)"),
    "B3": ChemModel("B3", False, "composition", "composition", "Ethier & Gámez (2013)"),
}


def get_chemin_model(model: str | ChemModel) -> ChemModel:
    """The :class:`ChemModel` named ``model`` (``"A1"``, ..., ``"B3"``, any case).

    Parameters
    ----------
    model
        A model's name or a :class:`ChemModel`.

    Returns
    -------
    ChemModel
        The model.

    Examples
    --------
    >>> get_chemin_model("b2").banker_sees
    'composition'
    """
    if isinstance(model, ChemModel):
        return model
    if not isinstance(model, str):
        raise TypeError(f"model must be a name such as 'B2' or a ChemModel, not {type(model).__name__} {model!r}")
    key = model.strip().upper()
    if key not in CHEMIN_MODELS:
        raise ValueError(f"unknown chemin de fer model {model!r}: expected one of {', '.join(CHEMIN_MODELS)}")
    return CHEMIN_MODELS[key]
