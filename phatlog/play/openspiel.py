"""Phat, Nine-card Don, Irish Don and Oh Hell as OpenSpiel games, played on phatlog's State.

Importing this module (or ``phatlog.openspiel``) registers four pyspiel Python games, so OpenSpiel's own
algorithms (MCTS, CFR's samplers, the game checks) run on them::

    import phatlog.openspiel, pyspiel
    game = pyspiel.load_game("phatlog_phat", {"target": 121})

- **Chance**: each deal is dealt a card at a time, one chance node a card, from the dealer's left (and
  Oh Hell's turned-up card after the hands), every card not yet dealt equally likely; once the cards are
  out the State is dealt them (``State.deal``), and every rule is the State's from there.
- **Actions**: a card is its number, 0 to 51 (``i // 13`` the suit in C D H S, ``i % 13`` the rank from
  the two); an Oh Hell bid of ``b`` tricks is ``52 + b``.
- **Parameters**: the game's rules parameters (docs/format.md), each with its default: strings and
  numbers as they are; Oh Hell's ``schedule`` a name (``up``, ``down``, ``up_down``, ``down_up``) or hand
  sizes separated by commas (``"1,2,3"``), ``max_cards`` 0 for none; Nine-card Don's ``low_to`` ``""``
  for the default. Besides: ``players`` (Oh Hell, 3 to 7; 4 by default), ``dealer`` (the first, 0 by
  default) and ``deals`` (0, the default: the whole game; N: the game stops after N deals).
- **Returns**, once the game is over: in the All Fours family +1 to each player of the winning side, -1
  to the others (after ``deals`` deals, the side ahead wins; equal totals are 0); in Oh Hell each
  player's total.
- **Observations**: :mod:`phatlog.play.observation`'s tensor and string (``information_state_tensor``,
  ``information_state_string``, and the same as the observation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import pyspiel

from phatlog.engine.state import Phase, State
from phatlog.play.observation import (
    information_state_shape,
    information_state_string,
    information_state_tensor,
    most_tricks,
)
from phatlog.play.start import start
from phatlog.rules import oh_hell
from phatlog.rules.cards import CARD_TEXT, DECK
from phatlog.rules.table import first_leader, in_turn

BID: Final = 52  # action 52 + b: bid b tricks

#: Each game's rules parameters with their defaults, as pyspiel takes them (scalars only).
RULES_PARAMETERS: Final[dict[str, dict[str, Any]]] = {
    "phat": {"target": 181, "peg_out": "immediate", "muck_tie": "none"},
    "nine_card_don": {
        "target": 121,
        "peg_out": "immediate",
        "bonus": "game_8",
        "low_to": "",
        "follow": "must_follow",
    },
    "irish_don": {"target": 81, "peg_out": "immediate"},
    "oh_hell": {
        "schedule": "up",
        "max_cards": 0,
        "no_trump": "last_hand",
        "bidding": "sequential",
        "hook": False,
        "must_trump": False,
        "miss": "zero",
        "zero_bid": "standard",
        "players": 4,
    },
}
LONG_NAMES: Final = {
    "phat": "Phat (phatlog)",
    "nine_card_don": "Nine-card Don (phatlog)",
    "irish_don": "Irish Don (phatlog)",
    "oh_hell": "Oh Hell (phatlog)",
}


def turns_up(state: State) -> bool:
    """Whether the deal due turns up a card for trump (Oh Hell: ``rules.oh_hell.has_trump``)."""
    sizes = getattr(state, "sizes", None)
    if state.game != "oh_hell" or sizes is None:
        return False
    index = min(state.deal_index + 1 - getattr(state, "voided", 0), len(sizes) - 1)
    return oh_hell.has_trump(state.seats, sizes[index], index == len(sizes) - 1, state.rules.no_trump)


def short_name(game: str) -> str:
    """The name OpenSpiel knows a game by: ``phatlog_`` and the game's name."""
    return f"phatlog_{game}"


def rules_of(game: str, params: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The record's rules (for ``phatlog.start``) and the players, from a game's pyspiel parameters."""
    rules: dict[str, Any] = {}
    for name, default in RULES_PARAMETERS[game].items():
        value = params.get(name, default)
        if name == "players":
            continue
        if name == "low_to" and value == "":
            continue
        if name == "max_cards" and value == 0:
            continue
        if name == "schedule" and ("," in str(value) or str(value).isdigit()):
            value = [int(x) for x in str(value).split(",")]
        rules[name] = value
    players = int(params.get("players", 4)) if game == "oh_hell" else 4
    return rules, players


class PhatlogGame(pyspiel.Game):  # type: ignore[misc]
    """One of phatlog's games as an OpenSpiel game (see the module)."""

    game_name = "phat"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules, self.players = rules_of(self.game_name, given)
        self.deals = int(given.get("deals", 0))
        self.dealer = int(given.get("dealer", 0))
        probe = self.start()
        self.tricks = most_tricks(probe)
        self.tensor_size = information_state_shape(probe)
        oh = self.game_name == "oh_hell"
        if oh:
            sizes = oh_hell.hand_sizes(self.players, self.rules.get("schedule", "up"), self.rules.get("max_cards"))
            deals = len(sizes) if not self.deals else min(self.deals, len(sizes))
            miss, zero = self.rules.get("miss", "zero"), self.rules.get("zero_bid", "standard")
            scores = [v for size in sizes[:deals] for row in oh_hell.score_table(size, miss, zero) for v in row]
            low, high = min(0, min(scores) * deals), max(scores) * deals
            length = sum(size * self.players * 2 + self.players + 1 for size in sizes[:deals])
        else:
            low, high = -1, 1
            # A bound on the deals a game can take: the target, if each deal pegged only a point.
            deals = self.deals or int(self.rules.get("target", 181)) * 2
            length = deals * 52 * 2
        info = pyspiel.GameInfo(
            num_distinct_actions=BID + self.tricks + 1 if oh else BID,
            max_chance_outcomes=52,
            num_players=self.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None if oh else 0.0,
            max_game_length=length,
        )
        super().__init__(game_type(self.game_name), info, given)

    def start(self) -> State:
        """A new State of this game, its deals given by the chance nodes."""
        players = self.players if self.game_name == "oh_hell" else 4
        return start(self.game_name, players=players, rules=self.rules, seed=None, dealer=self.dealer)

    def new_initial_state(self) -> PhatlogState:
        return PhatlogState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type)


class PhatlogState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state playing phatlog's State (see the module)."""

    def __init__(self, game: PhatlogGame) -> None:
        super().__init__(game)
        self.limit = game.deals  # 0: the whole game
        self.state = game.start()
        self.dealing: list[int] = []  # the cards dealt so far of the deal being dealt, in dealing order

    # ---------------------------------------------------------------- the deal, a card at a time

    def _cards_to_deal(self) -> tuple[int, bool]:
        """The cards the deal due takes, and whether one more is turned up (Oh Hell's trump)."""
        state = self.state
        return state.hand_size() * state.seats, turns_up(state)

    def _deal_card(self, card: int) -> None:
        self.dealing.append(card)
        count, turnup = self._cards_to_deal()
        if len(self.dealing) < count + turnup:
            return
        state = self.state
        hands: list[list[Any]] = [[] for _ in range(state.seats)]
        for k in range(count):
            hands[in_turn(first_leader(state.dealer, state.seats), k, state.seats)].append(DECK[self.dealing[k]])
        up = DECK[self.dealing[count]] if turnup else None
        self.dealing = []
        state.deal(hands, turnup=up)

    def _over(self) -> bool:
        state = self.state
        if state.is_over:
            return True
        limit = self.limit
        return bool(limit) and state.phase is Phase.DEAL_OVER and state.deal_index + 1 >= limit

    # ---------------------------------------------------------------- pyspiel's State

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.state.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.state
        if state.phase is Phase.BID:
            return [BID + b for b in state.legal_bids()]
        return [int(card) for card in state.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(52)) - set(self.dealing))
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.state.is_chance:
            self._deal_card(action)
        elif self.state.phase is Phase.BID:
            self.state.apply(action - BID)
        else:
            self.state.apply(DECK[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_TEXT[DECK[action]]}"
        if action >= BID:
            return f"bid {action - BID}"
        return CARD_TEXT[DECK[action]]

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        state = self.state
        seats = state.seats
        if not self._over():
            return [0.0] * seats
        totals = state.totals
        if state.game == "oh_hell":
            return [float(t) for t in totals]
        if state.winner is not None:
            won = set(state.winner)
        else:
            won = {0} if totals[0] > totals[1] else {1} if totals[1] > totals[0] else set()
        if not won:
            return [0.0] * seats
        return [1.0 if seat % 2 in won else -1.0 for seat in range(seats)]

    def information_state_string(self, player: int | None = None) -> str:
        return information_state_string(self.state, self.current_player() if player is None else player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return information_state_tensor(self.state, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.information_state_tensor(player)

    def __str__(self) -> str:
        state = self.state
        lines = [f"{state.game} deal {state.deal_index + 1}, {state.phase.value}, totals {state.totals}"]
        for seat in range(state.seats):
            lines.append(f"{state.names[seat]}: {' '.join(CARD_TEXT[c] for c in state.hand(seat))}")
        if self.dealing:
            lines.append(f"dealing: {len(self.dealing)} cards out")
        return "\n".join(lines)


class Observer:
    """pyspiel's observer (``make_py_observer``): the information state tensor and string of
    :mod:`phatlog.play.observation`, for the observation and the information state alike."""

    def __init__(self, game: PhatlogGame, iig_obs_type: Any) -> None:
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PhatlogState, player: int) -> None:
        self.tensor[:] = information_state_tensor(state.state, player)

    def string_from(self, state: PhatlogState, player: int) -> str:
        return information_state_string(state.state, player)


def game_type(game: str) -> Any:
    """The pyspiel ``GameType`` of one of phatlog's games, its parameters with their defaults."""
    oh = game == "oh_hell"
    params: dict[str, Any] = {**RULES_PARAMETERS[game], "dealer": 0, "deals": 0}
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=LONG_NAMES[game],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if oh else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(oh_hell.PLAYERS) if oh else 4,
        min_num_players=min(oh_hell.PLAYERS) if oh else 4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _game_class(game: str) -> type[PhatlogGame]:
    return type(f"{game.title().replace('_', '')}Game", (PhatlogGame,), {"game_name": game})


GAMES: Final = {game: _game_class(game) for game in RULES_PARAMETERS}


def register() -> None:
    """Register the four games with pyspiel (done once, when this module is imported)."""
    registered = set(pyspiel.registered_names())
    for game, cls in GAMES.items():
        if short_name(game) not in registered:
            pyspiel.register_game(game_type(game), cls)


register()
