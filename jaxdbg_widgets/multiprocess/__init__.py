"""One notebook for every process of a ``jax.distributed`` job, run by ipyparallel engines."""

from jaxdbg_widgets.multiprocess.job import cluster

__all__ = ["cluster"]
