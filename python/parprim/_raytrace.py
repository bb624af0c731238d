"""The sphere ray tracer (apps/raytrace) from Python."""

import numpy as np

from . import _core
from ._errors import InvalidArgumentError
from .nbody import _device_of

_MEMORY = {"constant": 0, "global": 1, "auto": 2}


def random_scene(count, seed=1):
    """`count` random spheres as a (count, 7) float32 array of rows (x, y, z, radius, red,
    green, blue), and the light position."""
    return _core.random_scene(int(count), int(seed))


def load_scene(path):
    """A scene file's spheres and light, as random_scene() returns them."""
    return _core.load_scene(str(path))


def raytrace(spheres=100, *, width=800, height=600, seed=1, light=None, memory="auto",
             device=None, timed_frames=0):
    """Renders spheres seen from the origin looking down -z (60 degree field of view).

    spheres: a count of random spheres (from `seed`), a (k, 7) array of rows (x, y, z, radius,
    red, green, blue), or a scene file's path. memory: where a CUDA renderer keeps the spheres
    ("constant", "global", "auto"). Returns the (height, width, 3) uint8 RGB image; CPU and
    GPU images are bitwise identical. With timed_frames=k, returns (image, ms per frame over k
    further frames, sphere memory used) instead."""
    if memory not in _MEMORY:
        raise InvalidArgumentError("parprim.raytrace: memory=%r is not one of %s"
                                   % (memory, ", ".join(_MEMORY)))
    if isinstance(spheres, (int, np.integer)):
        rows, scene_light = random_scene(spheres, seed)
    elif isinstance(spheres, str):
        rows, scene_light = load_scene(spheres)
    else:
        rows, scene_light = np.ascontiguousarray(spheres, dtype=np.float32), (-6.0, 8.0, 2.0)
        if rows.ndim != 2 or rows.shape[1] != 7:
            raise InvalidArgumentError("parprim.raytrace: spheres must have shape (k, 7); got %s"
                                       % (rows.shape,))
    light = tuple(float(c) for c in (light if light is not None else scene_light))
    image, used, ms = _core.render(rows, light, int(width), int(height), _MEMORY[memory],
                                   _device_of(device), int(timed_frames))
    return (image, ms, used) if timed_frames > 0 else image
