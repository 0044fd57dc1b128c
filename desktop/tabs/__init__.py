"""The tab machinery every game shares: the base tab, its controller, the published snapshot, the
entry checks, the background jobs, the engine's optional capabilities, the banner, Why? and
the correction flow (diagnosis, Fix…).
"""
