"""Phat, Nine-card Don, Irish Don and Oh Hell as OpenSpiel games: ``import phatlog.openspiel`` registers
``phatlog_phat``, ``phatlog_nine_card_don``, ``phatlog_irish_don`` and ``phatlog_oh_hell`` with pyspiel
(docs/openspiel.md). Needs ``pip install 'phatlog[openspiel]'``. The games live in
:mod:`phatlog.play.openspiel`; this module is their public name."""

from __future__ import annotations

from phatlog.play.openspiel import GAMES, PhatlogGame, PhatlogState, register, short_name, turns_up

__all__ = ["GAMES", "PhatlogGame", "PhatlogState", "register", "short_name", "turns_up"]
