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
from engines.core.lazy import PARSE_NAMES, SIMULATE_NAMES, exports_of, lazy_package

# each public name -> the submodule that defines it, imported on first use (engines/core/lazy.py)
__all__ = lazy_package(__name__, {
    "BUNDLED_BOARDS": "board", "Attribute": "board", "Board": "board", "Character": "board",
    "Question": "board", "board_from_csv": "board", "board_from_json": "board",
    "load_board": "board", "parse_question": "board",
    "DP_BUDGET": "inference", "METHODS": "inference", "Posterior": "inference",
    "RankedQuestion": "inference", "Recommendation": "inference", "advised_question": "inference",
    "belief_summary": "inference", "infer": "inference", "posterior_probabilities": "inference",
    "question_dp": "inference", "rank_questions": "inference", "recommend": "inference",
    "EVENT_KEYS": "model", "EVENT_TYPES": "model", "GAME": "model", "RULES": "model",
    "TITLE": "model", "Answer": "model",
    "Eliminate": "model", "Event": "model", "Opponent": "model", "Setup": "model",
    "default_setup": "model", "describe_event": "model", "event_from_json": "model",
    "setup_for_board": "model",
    "BudgetExceeded": "optimal", "QuestionDP": "optimal", "balanced_depth_sum": "optimal",
    "brute_force_expected_questions": "optimal", "race_best_split": "optimal",
    "race_win_probability": "optimal",
    **exports_of("parse", PARSE_NAMES),
    **exports_of("simulate", SIMULATE_NAMES), "STRATEGIES": "simulate",
    "diagnose": "diagnosis",
    "explain": "explain", "explain_contradiction": "explain",
})
