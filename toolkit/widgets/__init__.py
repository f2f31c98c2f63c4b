"""Jupyter front ends of the live layer: the shoe explorer and the shoe stepper (ipywidgets).

* :mod:`~toolkit.widgets.explorer`: :class:`ShoeExplorer`, remove and add cards, every edge updated at once;
* :mod:`~toolkit.widgets.stepper`: :class:`ShoeStepper`, a recorded or dealt shoe stepped coup by coup.
"""

from toolkit.widgets.explorer import ShoeExplorer
from toolkit.widgets.stepper import ShoeStepper

__all__ = ("ShoeExplorer", "ShoeStepper")
