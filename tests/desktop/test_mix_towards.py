"""desktop.shell.appearance.mix_towards, the one colour walk behind legible disabled text, check box
outlines and secondary text: property tests of both of its stopping rules, and the outline
kept per palette gives the colour the walk gives."""
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QPalette

from desktop.shell.appearance import INDICATOR_CONTRAST, contrast, dark_palette, indicator_outline, mix_towards

rgb = st.tuples(*(st.integers(0, 255),) * 3).map(lambda c: QColor(*c))


def _steps(start, towards, n):
    return [QColor(*(round(a + (b - a) * (k * 0.05)) for a, b in zip(start.getRgb()[:3], towards.getRgb()[:3])))
            for k in range(1, n + 1)]


@settings(max_examples=200, deadline=None)
@given(rgb, rgb, rgb, st.floats(1.0, 8.0), st.integers(1, 20))
def test_first_and_furthest_mix(qapp, start, towards, back, floor, n):
    def holds(c):
        return contrast(c, back) >= floor

    steps = _steps(start, towards, n)
    first = mix_towards(start, towards, n, holds, first=True)
    ok = [holds(c) for c in steps]
    if first is None:
        assert not any(ok)
    else:
        k = steps.index(first)
        assert ok[k] and not any(ok[:k])
    furthest = mix_towards(start, towards, n, holds)
    run = next((k for k, v in enumerate(ok) if not v), n)   # steps holding from the start
    assert furthest == (steps[run - 1] if run else None)


def test_outline_kept_per_palette_is_the_walks_colour(qapp):
    for palette in (QPalette(), dark_palette()):
        for enabled in (True, False):
            group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
            base, text = palette.color(group, QPalette.Base), palette.color(group, QPalette.Text)
            walk = mix_towards(text, base, 19, lambda c: contrast(c, base) >= INDICATOR_CONTRAST) or text
            assert indicator_outline(palette, enabled) == walk == indicator_outline(palette, enabled)
