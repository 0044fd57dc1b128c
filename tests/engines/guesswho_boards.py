"""Random Guess Who? boards of a given size, as session objects (tests and benchmarks of the
cost limits and of Cancel on large boards)."""
import random


def random_board_session(n_chars: int = 24, n_attr: int = 6, n_vals: int = 30,
                         compound: bool = True, seed: int = 1) -> dict:
    """A session (JSON object) on a board of ``n_chars`` characters with ``n_attr`` attributes of
    ``n_vals`` values each, every character's values drawn uniformly (``random.Random(seed)``);
    no events. The default is the largest board the compound-question limit accepts."""
    rng = random.Random(seed)
    attrs = [{"name": f"attr{a}", "values": [f"v{a}x{k}" for k in range(n_vals)]}
             for a in range(n_attr)]
    chars = [{"name": f"Char{i}", "attributes": {f"attr{a}": f"v{a}x{rng.randrange(n_vals)}"
                                                 for a in range(n_attr)}} for i in range(n_chars)]
    return {"format": "deduction-desk.session", "version": 1, "game": "guesswho",
            "setup": {"board": {"name": "big", "attributes": attrs, "characters": chars},
                      "compound_questions": compound}, "events": []}
