"""Storage: the session document and its undo commands, the write-ahead journal and autosave,
the instance locks, the hand-off between running copies, restore after a crash, and the
write-failure bar. A change reaches the disk here before it reaches the screen.
"""
