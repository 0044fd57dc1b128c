"""Inkognito engine: joint Bayesian identity disclosure for all opponents.

Public API (the engine contract, engines/CONTRACT.md):

* :data:`GAME`, :data:`TITLE`, :data:`METHODS` (``"joint"``, ``"independent"``),
  :data:`EVENT_TYPES` (``"answer"``)
* :class:`Setup`, :class:`Deception`, :func:`default_setup`, :class:`Answer`,
  :func:`event_from_json`, :func:`describe_event`, :func:`validate_answer`
* :func:`infer` -> :class:`Posterior` (:class:`OpponentBelief` per opponent);
  :func:`belief_summary`; :func:`recommend` -> :class:`Recommendation`
* :func:`answer_forms` (every form the rules allow), :func:`form_table`,
  :func:`answer_likelihood` (likelihoods), :func:`worlds`
* :class:`ProfileStore` (per-opponent θ across games)
* :func:`simulate` -> :class:`SimulationResult`; :func:`add_simulate_arguments`,
  :func:`simulate_main` (``python -m engines simulate inkognito``)

Sources: Höhle's Inkognito post (sequential Bayesian identity disclosure, likelihoods 1/15 and 1/3);
the Inkognito rules (Colovini & Randolph) as cited in :mod:`engines.inkognito.model`.
"""
from engines.inkognito.inference import (
                                         GRID,
                                         METHODS,
                                         OpponentBelief,
                                         Posterior,
                                         RankedQuestion,
                                         Recommendation,
                                         belief_summary,
                                         beta_on_grid,
                                         encode,
                                         infer,
                                         recommend,
                                         theta_grid,
                                         worlds,
)
from engines.inkognito.likelihood import AnswerForm, FormTable, answer_forms, answer_likelihood, form_table
from engines.inkognito.model import (
                                         DEFAULT_DECEPTION_PRIOR,
                                         EVENT_TYPES,
                                         GAME,
                                         KINDS,
                                         QUESTIONS,
                                         TEAMS,
                                         TITLE,
                                         Answer,
                                         Deception,
                                         Event,
                                         Setup,
                                         default_names,
                                         default_setup,
                                         describe_event,
                                         event_from_json,
                                         form_shapes,
                                         partner_index,
                                         validate_answer,
)
from engines.inkognito.parse import complete, contradiction, format_event, parse, preview
from engines.inkognito.profiles import ProfileStore, beta_from_moments
from engines.inkognito.simulate import (
                                         POLICIES,
                                         SimConfig,
                                         SimulationResult,
                                         add_simulate_arguments,
                                         simulate,
                                         simulate_main,
)

__all__ = [n for n in dir() if not n.startswith("_")]
from engines.inkognito.diagnosis import diagnose  # noqa: E402 (after the set-up above)
from engines.inkognito.explain import explain, explain_contradiction  # noqa: E402 (after the set-up above)

__all__ = [n for n in dir() if not n.startswith("_")]
