"""Walking and editing a parsed JSON document by paths (tuples of keys and list indices), for
the fuzzers (tests/engines/test_fuzz.py, tests/benchmarks/fuzz_cli.py)."""


def paths(obj, prefix=()):
    """Every (path, value) in a JSON tree, the root (path ``()``) first."""
    yield prefix, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, prefix + (i,))


def set_at(obj, path, value):
    """Replace the value at ``path`` (not the root) by ``value``, in place."""
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


def delete_at(obj, path):
    """Remove the value at ``path`` (not the root) from its object or list, in place."""
    for p in path[:-1]:
        obj = obj[p]
    del obj[path[-1]]
