"""stub"""
def simulate(*a, **k): raise NotImplementedError
def add_simulate_arguments(p): pass
def simulate_main(a): return {}
