"""Egghead engine: valid stacks with behavioural analysis, and Zorn's (2024) simulation.

Public API (the engine contract, engines/CONTRACT.md):

* :data:`GAME`, :data:`TITLE`, :data:`METHODS`, :data:`EVENT_TYPES`
* :class:`Setup`, :func:`default_setup`, :func:`event_from_json`, :func:`describe_event`;
  events :class:`Answer`, :class:`Reactions`, :class:`Solve`
* :func:`infer` -> :class:`Posterior`; :func:`belief_summary`; :func:`recommend`;
  :func:`reactions_can_change` (has the reactions fixpoint been reached?)
* the incremental interface a timeline uses: :func:`initial`, :func:`update`,
  :func:`posterior`, :func:`copy_state`, :func:`state_bytes`
* the question deck: :func:`load_deck`, :func:`bound_deck`, :func:`stack_space`;
  :func:`questions_for` (picker entries with possible answers), :func:`answer_for`
* :func:`simulate` -> :class:`SimulationResult`, :func:`add_simulate_arguments`,
  :func:`simulate_main`

Source: M. Zorn, "A study on the logic game Egghead", 2024: valids (eq. (1)),
conditional information and the master table (Definition 4.1, appendix A.1), eqs. (2)–(6)
and Algorithm 1.
"""
from engines.core.lazy import PARSE_NAMES, SIMULATE_NAMES, exports_of, lazy_package

# each public name -> the submodule that defines it, imported on first use (engines/core/lazy.py)
__all__ = lazy_package(__name__, {
    "METHODS": "inference", "LearnedRecord": "inference", "Posterior": "inference",
    "Recommendation": "inference", "available_bytes": "inference", "belief_summary": "inference",
    "check_memory": "inference", "copy_state": "inference",
    "estimated_seconds_per_event": "inference", "infer": "inference", "initial": "inference",
    "is_large": "inference", "memory_needed": "inference", "memory_needed_for": "inference",
    "posterior": "inference", "reactions_can_change": "inference", "recommend": "inference",
    "state_bytes": "inference", "update": "inference",
    "EVENT_KEYS": "model", "EVENT_TYPES": "model", "GAME": "model", "MAX_CUSTOM_TABLE_BYTES": "model",
    "MAX_TABLE_BYTES": "model", "SEED_DECK": "model", "TITLE": "model", "Answer": "model",
    "Event": "model", "QuestionChoice": "model", "Reactions": "model", "Setup": "model",
    "Solve": "model", "answer_for": "model", "default_setup": "model", "describe_event": "model",
    "event_from_json": "model", "max_table_bytes": "model", "questions_for": "model", "visible_after": "model",
    **exports_of("parse", PARSE_NAMES), "forced_answer": "parse", "possible_answers": "parse",
    "seen_answers": "parse",
    "Question": "questions", "QuestionSpec": "questions", "StackSpace": "questions",
    "bound_deck": "questions", "load_deck": "questions", "stack_space": "questions",
    **exports_of("simulate", SIMULATE_NAMES), "ConfigResult": "simulate", "ModeStats": "simulate",
    "play_game": "simulate", "win_probabilities": "simulate",
    "BitTable": "table", "table_bytes": "table",
    "diagnose": "diagnosis",
    "explain": "explain", "explain_contradiction": "explain",
})
