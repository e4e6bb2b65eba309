"""The throttle that batches print-log updates, driven with a hand-cranked clock."""

import itertools

import pytest

from jaxdbg_widgets.notebook.throttle import Throttle


class FakeTime:
    """A clock and a scheduler whose timers fire only when time is advanced."""

    def __init__(self):
        self.now = 0.0
        self.timers: list[tuple[float, object]] = []

    def schedule(self, delay, action):
        self.timers.append((self.now + delay, action))

    def advance(self, seconds):
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now]
        self.timers = [t for t in self.timers if t[0] > self.now]
        for _, action in due:
            action()


@pytest.fixture
def fake():
    return FakeTime()


def test_a_burst_of_pokes_becomes_one_flush(fake):
    flushed = []
    throttle = Throttle(
        lambda: flushed.append(fake.now), 0.05, schedule=fake.schedule, clock=lambda: fake.now
    )
    for _ in range(1000):
        throttle.poke()
    assert len(fake.timers) == 1
    fake.advance(0.0)
    assert flushed == [0.0]


def test_flushes_never_come_closer_than_the_interval(fake):
    flushed = []
    throttle = Throttle(
        lambda: flushed.append(fake.now), 0.05, schedule=fake.schedule, clock=lambda: fake.now
    )
    for _ in range(2000):  # one poke per simulated millisecond for two seconds
        throttle.poke()
        fake.advance(0.001)
    fake.advance(1.0)
    gaps = [b - a for a, b in itertools.pairwise(flushed)]
    assert min(gaps) >= 0.05 - 1e-9
    assert 35 <= len(flushed) <= 41
    assert throttle.flushes == len(flushed)


def test_the_last_poke_of_a_burst_is_always_flushed(fake):
    flushed = []
    throttle = Throttle(
        lambda: flushed.append(fake.now), 0.05, schedule=fake.schedule, clock=lambda: fake.now
    )
    throttle.poke()
    fake.advance(0.0)
    fake.advance(0.01)
    throttle.poke()  # arrives inside the interval: waits for the rest of it
    assert fake.timers[0][0] == pytest.approx(0.05)
    fake.advance(0.04)
    assert flushed == [0.0, pytest.approx(0.05)]


def test_a_poke_during_a_flush_schedules_another(fake):
    flushed = []

    def flush():
        flushed.append(fake.now)
        if len(flushed) == 1:
            throttle.poke()

    throttle = Throttle(flush, 0.05, schedule=fake.schedule, clock=lambda: fake.now)
    throttle.poke()
    fake.advance(0.0)
    fake.advance(0.05)
    assert flushed == [0.0, pytest.approx(0.05)]


def test_interval_must_be_positive():
    with pytest.raises(ValueError, match="interval must be positive"):
        Throttle(lambda: None, 0)


def test_real_timer_thread_flushes():
    import threading

    done = threading.Event()
    throttle = Throttle(done.set, 0.01)
    throttle.poke()
    assert done.wait(5)
