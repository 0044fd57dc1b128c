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
from engines.core.lazy import PARSE_NAMES, SIMULATE_NAMES, exports_of, lazy_package

# each public name -> the submodule that defines it, imported on first use (engines/core/lazy.py)
__all__ = lazy_package(__name__, {
    "GRID": "inference", "METHODS": "inference", "OpponentBelief": "inference",
    "Posterior": "inference", "RankedQuestion": "inference", "Recommendation": "inference",
    "belief_summary": "inference", "beta_on_grid": "inference", "encode": "inference",
    "infer": "inference", "recommend": "inference", "theta_grid": "inference",
    "worlds": "inference",
    "AnswerForm": "likelihood", "FormTable": "likelihood", "answer_forms": "likelihood",
    "answer_likelihood": "likelihood", "form_table": "likelihood",
    "DEFAULT_DECEPTION_PRIOR": "model", "EVENT_KEYS": "model", "EVENT_TYPES": "model",
    "GAME": "model", "KINDS": "model",
    "QUESTIONS": "model", "TEAMS": "model", "TITLE": "model", "Answer": "model",
    "Deception": "model", "Event": "model", "Setup": "model", "default_names": "model",
    "default_setup": "model", "describe_event": "model", "event_from_json": "model",
    "form_shapes": "model", "partner_index": "model", "validate_answer": "model",
    **exports_of("parse", PARSE_NAMES),
    "ProfileStore": "profiles", "beta_from_moments": "profiles",
    **exports_of("simulate", SIMULATE_NAMES), "POLICIES": "simulate",
    "diagnose": "diagnosis",
    "explain": "explain", "explain_contradiction": "explain",
})
