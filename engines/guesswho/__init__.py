"""Guess Who? engine: candidates, information-ranked questions, optimal play, race.

Public API (the engine contract, engines/CONTRACT.md):

* :data:`GAME`, :data:`TITLE`, :data:`METHODS`, :data:`EVENT_TYPES`
* :class:`Setup`, :func:`default_setup`, :func:`setup_for_board`, :func:`event_from_json`,
  :func:`describe_event`; events :class:`Answer`, :class:`Eliminate`, :class:`Opponent`
* :func:`load_board` (bundled ``classic``/``demo`` or a user's CSV/JSON), :class:`Board`,
  :class:`Question`
* :func:`infer` -> :class:`Posterior`; :func:`belief_summary`; :func:`recommend`
* :func:`expected_questions`-style DP (:class:`QuestionDP`), :func:`race_win_probability`,
  :func:`race_best_split` (Nica 2016)
* :func:`simulate`, :func:`add_simulate_arguments`, :func:`simulate_main`

Sources: the “Guess Who Solver” notebook (question choice by conditional mutual information); M. Nica, "Optimal
strategy in Guess Who?: Beyond binary search", Probab. Eng. Inf. Sci. 30(4), 2016.
"""
from engines.guesswho.board import (
                                    BUNDLED_BOARDS,
                                    Attribute,
                                    Board,
                                    Character,
                                    Question,
                                    board_from_csv,
                                    board_from_json,
                                    load_board,
                                    parse_question,
)
from engines.guesswho.inference import (
                                    DP_BUDGET,
                                    METHODS,
                                    Posterior,
                                    RankedQuestion,
                                    Recommendation,
                                    advised_question,
                                    belief_summary,
                                    infer,
                                    posterior_probabilities,
                                    question_dp,
                                    rank_questions,
                                    recommend,
)
from engines.guesswho.model import (
                                    EVENT_TYPES,
                                    GAME,
                                    RULES,
                                    TITLE,
                                    Answer,
                                    Eliminate,
                                    Event,
                                    Opponent,
                                    Setup,
                                    default_setup,
                                    describe_event,
                                    event_from_json,
                                    setup_for_board,
)
from engines.guesswho.optimal import (
                                    BudgetExceeded,
                                    QuestionDP,
                                    balanced_depth_sum,
                                    brute_force_expected_questions,
                                    race_best_split,
                                    race_win_probability,
)
from engines.guesswho.parse import complete, contradiction, format_event, parse, preview
from engines.guesswho.simulate import (
                                    STRATEGIES,
                                    SimConfig,
                                    SimulationResult,
                                    add_simulate_arguments,
                                    simulate,
                                    simulate_main,
)

__all__ = [n for n in dir() if not n.startswith("_")]
from engines.guesswho.diagnosis import diagnose  # noqa: E402 (after the set-up above)
from engines.guesswho.explain import explain, explain_contradiction  # noqa: E402 (after the set-up above)

__all__ = [n for n in dir() if not n.startswith("_")]
