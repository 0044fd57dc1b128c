"""The stacks I see after a log (engines.egghead.model.visible_after): the setup's, each
replaced by the new stack another player was dealt when they solved; my own solve changes
nothing I see; the forms, the quick entry's answers and the diagnosis all read it."""
from engines import egghead
from engines.egghead.model import Solve


def test_another_players_solve_shows_their_new_stack_and_mine_changes_nothing():
    setup = egghead.default_setup()
    other = next(p for p in setup.players if p != setup.me)
    before = setup.visible_dict()
    new = tuple(1 for _ in before[other])
    assert egghead.visible_after(setup, []) == before
    after = egghead.visible_after(setup, [Solve(player=other, cards=before[other], new_cards=new)])
    assert after[other] == new
    assert {p: s for p, s in after.items() if p != other} == \
        {p: s for p, s in before.items() if p != other}
    assert egghead.visible_after(setup, [Solve(player=setup.me, cards=None, new_cards=None)]) == before
    # the setup itself is untouched (a copy is returned)
    assert setup.visible_dict() == before


def test_the_quick_entrys_answers_follow_a_solvers_new_stack():
    """seen_answers reads the stacks through visible_after: the default table shows B 4 5 6
    and C 3 3 3 (sum 24, my three cards 3..18: 27..42); once B solves and is dealt 1 1 1, the
    sum ranges over 12 + 3..18."""
    setup = egghead.default_setup()
    assert setup.visible_dict() == {"B": (4, 5, 6), "C": (3, 3, 3)}
    assert egghead.seen_answers(setup, [], "sum") == list(range(27, 43))
    solved = [Solve(player="B", cards=(4, 5, 6), new_cards=(1, 1, 1))]
    assert egghead.seen_answers(setup, solved, "sum") == list(range(15, 31))
