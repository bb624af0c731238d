"""The N-body simulator (apps/nbody) from Python: all-pairs gravity with Plummer softening and
a kick-drift-kick leapfrog, on the CPU or a CUDA device, in float32 or float64. N-body units
(G = 1). Results are NumPy arrays on the host."""

import numpy as np

from . import _core
from ._errors import InvalidArgumentError

_FIELDS = ("mass", "x", "y", "z", "vx", "vy", "vz")
_INITS = ("plummer", "uniform", "collision")


def initial_conditions(kind, n, seed=1):
    """n bodies as a dict of float64 arrays (mass, x, y, z, vx, vy, vz): kind "plummer" (a
    Plummer sphere in virial equilibrium), "uniform" (a cold cube) or "collision" (two Plummer
    spheres on a parabolic orbit). The same seed gives the same bodies everywhere."""
    if kind not in _INITS:
        raise InvalidArgumentError("parprim.nbody.initial_conditions: kind=%r is not one of %s"
                                   % (kind, ", ".join(_INITS)))
    return _core.initial_bodies(kind, int(n), int(seed))


def read_bodies(path):
    """Bodies from a CSV body file (mass,x,y,z,vx,vy,vz per line), as initial_conditions()."""
    return _core.initial_bodies(str(path), 0, 0)


def _device_of(device):
    if device in (None, "cuda"):
        if device is None and _core.build_info()["cuda_devices"] == 0:
            return -1
        return 0
    if device == "cpu":
        return -1
    if isinstance(device, str) and device.startswith("cuda:"):
        return int(device[5:])
    if isinstance(device, int):
        return device
    raise InvalidArgumentError("parprim: device=%r; use None (the best available), 'cpu', "
                               "'cuda' or 'cuda:N'" % (device,))


class BodySystem:
    """A simulation: bodies (a dict as initial_conditions() returns) with softening `eps`, on
    `device` (None: cuda:0 if a GPU answers, else the CPU; 'cpu'; 'cuda:N') in float32 or
    float64."""

    def __init__(self, bodies, eps=0.01, *, device=None, dtype="float32"):
        if dtype not in ("float32", "float64"):
            raise InvalidArgumentError("parprim.nbody.BodySystem: dtype=%r; supported: float32, "
                                       "float64" % (dtype,))
        columns = [np.ascontiguousarray(bodies[f], dtype=np.float64) for f in _FIELDS]
        self._system = _core.BodySystem(*columns, float(eps), dtype == "float64",
                                        _device_of(device))

    def advance(self, steps, dt):
        """Runs `steps` leapfrog steps of length dt."""
        self._system.advance(int(steps), float(dt))

    def positions(self):
        """(n, 3) positions at the current time."""
        return self._system.positions_velocities()[0]

    def velocities(self):
        """(n, 3) velocities, at the same time as the positions."""
        return self._system.positions_velocities()[1]

    def accelerations(self):
        """(n, 3) accelerations at the current positions."""
        return self._system.accelerations()

    def potentials(self):
        """Per-body potential -sum_j m_j / sqrt(r_ij^2 + eps^2)."""
        return self._system.potentials()

    @property
    def steps_taken(self):
        return self._system.steps_taken

    def __len__(self):
        return self._system.size


def simulate(bodies=None, *, n=4096, init="plummer", seed=1, steps=100, dt=0.001, eps=0.01,
             every=0, device=None, dtype="float32"):
    """Runs a simulation and returns positions: an (n, 3) array after `steps` steps, or with
    every=k an (steps // k + 1, n, 3) array of the initial positions and those after every k
    steps. `bodies` (a dict as initial_conditions() returns) overrides n, init and seed."""
    if bodies is None:
        bodies = initial_conditions(init, n, seed)
    system = BodySystem(bodies, eps, device=device, dtype=dtype)
    if every <= 0:
        system.advance(steps, dt)
        return system.positions()
    frames = [system.positions()]
    for _ in range(int(steps) // int(every)):
        system.advance(every, dt)
        frames.append(system.positions())
    return np.stack(frames)
