"""stub"""
class CluedoRecommendation: pass
def recommend(*a, **k): raise NotImplementedError
def refute_advice(*a, **k): raise NotImplementedError
