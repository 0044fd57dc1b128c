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
from engines.egghead.inference import (
                                       METHODS,
                                       LearnedRecord,
                                       Posterior,
                                       Recommendation,
                                       available_bytes,
                                       belief_summary,
                                       check_memory,
                                       copy_state,
                                       estimated_seconds_per_event,
                                       infer,
                                       initial,
                                       is_large,
                                       memory_needed,
                                       memory_needed_for,
                                       posterior,
                                       reactions_can_change,
                                       recommend,
                                       state_bytes,
                                       update,
)
from engines.egghead.model import (
                                       EVENT_TYPES,
                                       GAME,
                                       MAX_CUSTOM_TABLE_BYTES,
                                       MAX_TABLE_BYTES,
                                       SEED_DECK,
                                       TITLE,
                                       Answer,
                                       Event,
                                       QuestionChoice,
                                       Reactions,
                                       Setup,
                                       Solve,
                                       answer_for,
                                       default_setup,
                                       describe_event,
                                       event_from_json,
                                       max_table_bytes,
                                       questions_for,
)
from engines.egghead.parse import (
                                       complete,
                                       contradiction,
                                       forced_answer,
                                       format_event,
                                       parse,
                                       possible_answers,
                                       preview,
                                       seen_answers,
)
from engines.egghead.questions import Question, QuestionSpec, StackSpace, bound_deck, load_deck, stack_space
from engines.egghead.simulate import (
                                       ConfigResult,
                                       ModeStats,
                                       SimConfig,
                                       SimulationResult,
                                       add_simulate_arguments,
                                       play_game,
                                       simulate,
                                       simulate_main,
                                       win_probabilities,
)
from engines.egghead.table import BitTable, table_bytes

__all__ = [n for n in dir() if not n.startswith("_")]
from engines.egghead.diagnosis import diagnose  # noqa: E402 (after the set-up above)
from engines.egghead.explain import explain, explain_contradiction  # noqa: E402 (after the set-up above)

__all__ = [n for n in dir() if not n.startswith("_")]
