"""The applications from Python: N-body positions and ray-traced images, on the CPU and (where
a GPU answers) on CUDA."""

import numpy as np
import pytest

import parprim
from conftest import gpu_usable

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not gpu_usable(), reason="no CUDA device (or a CPU-only build of parprim)"))]


@pytest.mark.parametrize("device", DEVICES)
def test_nbody_two_bodies_orbit(device):
    # Two masses of 0.5 at separation d = 1 (G = 1) circle their centre of mass at radius 1/2:
    # v^2 / (d/2) = m_other / d^2 gives v = 0.5, and the period is 2 pi (d/2) / v.
    speed = 0.5
    bodies = {"mass": np.array([0.5, 0.5]), "x": np.array([-0.5, 0.5]), "y": np.zeros(2),
              "z": np.zeros(2), "vx": np.zeros(2), "vy": np.array([-speed, speed]),
              "vz": np.zeros(2)}
    period = 2 * np.pi * 0.5 / speed
    frames = parprim.nbody.simulate(bodies, steps=2000, dt=period / 2000, eps=0.0, every=500,
                                    device=device, dtype="float64")
    assert frames.shape == (5, 2, 3)
    np.testing.assert_allclose(frames[2], [[0.5, 0.0, 0.0], [-0.5, 0.0, 0.0]], atol=1e-4)
    np.testing.assert_allclose(frames[-1], frames[0], atol=1e-4)
    radii = np.linalg.norm(frames[:, 0] - frames[:, 1], axis=1)
    np.testing.assert_allclose(radii, 1.0, atol=1e-5)


@pytest.mark.parametrize("device", DEVICES)
def test_nbody_system_against_direct_sum(device):
    bodies = parprim.nbody.initial_conditions("plummer", 300, seed=5)
    system = parprim.nbody.BodySystem(bodies, eps=0.05, device=device, dtype="float64")
    assert len(system) == 300
    pos = np.stack([bodies["x"], bodies["y"], bodies["z"]], axis=1)
    np.testing.assert_array_equal(system.positions(), pos)
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d ** 2).sum(-1) + 0.05 ** 2
    np.fill_diagonal(r2, np.inf)
    want = (bodies["mass"][None, :, None] * d / r2[:, :, None] ** 1.5).sum(1)
    np.testing.assert_allclose(system.accelerations(), want, rtol=1e-9, atol=1e-9)
    system.advance(10, 0.001)
    assert system.steps_taken == 10
    assert system.positions().shape == (300, 3) and system.velocities().shape == (300, 3)
    assert system.potentials().shape == (300,)


def test_nbody_bad_arguments():
    with pytest.raises(ValueError, match="kind='disk'"):
        parprim.nbody.initial_conditions("disk", 10)
    bodies = parprim.nbody.initial_conditions("uniform", 10)
    bodies["mass"][3] = -1.0
    with pytest.raises(parprim.InvalidArgumentError, match="mass"):
        parprim.nbody.BodySystem(bodies, device="cpu")


def test_nbody_cpu_and_gpu_agree():
    if not gpu_usable():
        pytest.skip("no CUDA device (or a CPU-only build of parprim)")
    bodies = parprim.nbody.initial_conditions("collision", 2048, seed=2)
    cpu = parprim.nbody.simulate(bodies, steps=20, dt=0.001, device="cpu", dtype="float64")
    gpu = parprim.nbody.simulate(bodies, steps=20, dt=0.001, device="cuda", dtype="float64")
    np.testing.assert_allclose(gpu, cpu, rtol=0, atol=1e-9)


@pytest.mark.parametrize("device", DEVICES)
def test_raytrace_image(device):
    image = parprim.raytrace(20, width=64, height=48, seed=3, device=device)
    assert image.shape == (48, 64, 3) and image.dtype == np.uint8
    assert image.std() > 0  # spheres in front of a background, not a flat colour
    rows, light = parprim._raytrace.random_scene(20, 3)
    assert rows.shape == (20, 7)
    np.testing.assert_array_equal(parprim.raytrace(rows, width=64, height=48, light=light,
                                                   device=device), image)


def test_raytrace_cpu_and_gpu_images_are_identical():
    if not gpu_usable():
        pytest.skip("no CUDA device (or a CPU-only build of parprim)")
    for memory in ("constant", "global"):
        cpu = parprim.raytrace(50, width=160, height=120, device="cpu")
        gpu, ms, used = parprim.raytrace(50, width=160, height=120, device="cuda", memory=memory,
                                         timed_frames=2)
        np.testing.assert_array_equal(gpu, cpu)
        assert used == memory and ms > 0


def test_raytrace_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="shape"):
        parprim.raytrace(np.zeros((3, 6), np.float32))
    with pytest.raises(parprim.Error):
        parprim.raytrace(5, width=0, height=10, device="cpu")
    scene = tmp_path / "bad.scene"
    scene.write_text("sphere 0 0 -5 not-a-number 1 1 1\n")
    with pytest.raises(ValueError, match="bad.scene:1"):
        parprim.raytrace(str(scene), device="cpu")
    with pytest.raises(OSError):
        parprim.raytrace(str(tmp_path / "missing.scene"), device="cpu")
