"""A model shown in a view on screen, for the tests that compare what two views paint."""


def shown(qtbot, view, model, width: int, height: int):
    """``view`` showing ``model`` at ``width`` × ``height`` px, exposed (closed with the test);
    returns ``(view, model)``."""
    view.setModel(model)
    view.resize(width, height)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view, model
