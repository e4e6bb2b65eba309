"""``print`` and ``log``: ``jax.debug.print``/``jax.debug.log`` on the core primitive.

``print`` has ``jax.debug.print``'s signature (plus ``vmap_method``), so it can stand in for it.
Each host call writes the line to ``sys.stdout`` and hands a ``PrintRecord`` to the sinks.
"""

from __future__ import annotations

import copy
import inspect
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core import formatting, processes, sinks
from jaxdbg_widgets.core.arguments import SplitArguments, split_arguments, stage_or_defer
from jaxdbg_widgets.core.callsite import CallSite, user_call_site
from jaxdbg_widgets.core.primitive import (
    Batch,
    HostCall,
    bind,
    check_vmap_method,
    current_thread_id,
)

logger = logging.getLogger("jaxdbg_widgets")

_JAX_OWN_PRINT = jax.debug.print
"""JAX's own print, which Pallas knows how to lower inside a kernel (ours has no rule there)."""
_FORMAT_CHECKED = (
    {"skip_format_check": True}
    if "skip_format_check" in inspect.signature(jax.debug.print).parameters
    else {}
)
"""What tells JAX's print the format is already checked (JAX 0.7.1+; 0.7.0 checks again)."""


_KEEP_AT_MOST = 64
"""Values up to this many elements are kept for summaries built later; larger ones now."""


def _record(
    text: str, site: CallSite, names: tuple[str, ...], values, args, kwargs, process: int | None
) -> sinks.PrintRecord:
    """The record for the print sinks; its summaries are built on first read when the printed
    arrays are small enough to keep (XLA hands callbacks arrays of their own, never views)."""
    printed = _in_name_order(names, args, kwargs)
    if any(value.size > _KEEP_AT_MOST for value in values):
        pairs = zip(names, printed, strict=True)
        printed, names = tuple((name, formatting.summarize(v)) for name, v in pairs), None
    return sinks.PrintRecord(
        text,
        site.filename,
        site.lineno,
        site.function,
        time.time(),
        printed,
        current_thread_id(),
        names,
        process,
    )


def _in_name_order(
    names: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, ...]:
    """The printed values in the order of ``names``: positional ones first, then each keyword
    value by its name (rebuilt keyword arguments come back in sorted order, not the call's)."""
    return (*args, *(kwargs[name] for name in names[len(args) :]))


def _is_leaf(value: Any) -> bool:
    return jax.tree_util.treedef_is_leaf(jax.tree_util.tree_structure(value))


def _print_host_fn(
    fmt: str,
    placeholders: bool,
    split: SplitArguments,
    site: CallSite,
    log_record,
    names: tuple[str, ...],
):
    printoptions = np.get_printoptions()

    def host(values, batch: Batch | None) -> None:
        del batch
        args, kwargs = split.merge(values)
        text = formatting.render(fmt, placeholders, printoptions, args, kwargs)
        if log_record is not None:
            record = copy.copy(log_record)
            record.msg = text
            record.created = time.time()
            logger.handle(record)
            return
        process = processes.process_index()
        sys.stdout.write(processes.label_line(process, text) + "\n")
        if sinks.has_sinks():
            sinks.emit(_record(text, site, names, values, args, kwargs, process))

    return host


def _staged_print(
    names: _Names, *, ordered, partitioned, skip_format_check, vmap_method, level, site=None
):
    def stage(fmt: str, *args: Any, **kwargs: Any) -> None:
        names.check_string(fmt)
        if not skip_format_check:
            names.check(fmt, args, kwargs)
        if jx.in_pallas_kernel():
            _JAX_OWN_PRINT(fmt, *args, ordered=ordered, **_FORMAT_CHECKED, **kwargs)
            return
        call_site = site or user_call_site()
        log_record = None
        if level is not None:
            log_record = logger.makeRecord(
                logger.name,
                level,
                call_site.filename,
                call_site.lineno,
                "",
                (),
                None,
                call_site.function,
            )
        split = split_arguments(args, kwargs)
        placeholders = formatting.has_placeholders(fmt)
        host = _print_host_fn(
            fmt,
            placeholders,
            split,
            call_site,
            log_record,
            (*map(str, range(len(args))), *kwargs),
        )
        kind = "print" if level is None else "log"
        bind(
            split.dynamic,
            HostCall(host, kind, f"{kind}({fmt!r})"),
            ordered=ordered,
            partitioned=partitioned,
            vmap_method=vmap_method,
            numpy_operands=formatting.same_as_numpy(fmt, placeholders, args, kwargs, _is_leaf),
        )

    return stage


@dataclass(frozen=True)
class _Names:
    """How errors name the function the user called: ``jaxdbg_widgets.print`` or JAX's own.

    Standing in for JAX's (``jax_errors``), a bad format raises exactly what this JAX raises.
    """

    qualified: str
    two_call: str
    jax_errors: bool = False

    def check_string(self, fmt: Any) -> None:
        """Fail where this JAX fails on a format that is not a string, its check skipped or not."""
        if self.jax_errors:
            jx.check_jax_print_string(fmt)

    def check(self, fmt: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Raise for a format that is not a string or leaves arguments unused."""
        if self.jax_errors:
            if not jx.check_jax_print_format(fmt, args, kwargs):
                formatting.check_format(self.qualified, fmt, args, kwargs)
            return
        formatting.require_format_string(self.qualified, fmt)
        formatting.check_format(self.qualified, fmt, args, kwargs)


_PRINT = _Names("jaxdbg_widgets.print", "jaxdbg_widgets.print")
_LOG = _Names("jaxdbg_widgets.log", "jaxdbg_widgets.log")
_JAX_PRINT = _Names("jax.debug.print", "debug_print", jax_errors=True)


def print(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    vmap_method: str = "sequential",
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Print from inside staged JAX code, like ``jax.debug.print`` (same two call forms).

    ``vmap_method="expand_dims"`` prints a batch once with its leading batch axis instead of
    once per element.
    """
    return _print_or_stage(
        _PRINT, None, fmt, args, kwargs, ordered, partitioned, skip_format_check, vmap_method
    )


def jax_debug_print(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    _use_logging: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """``print`` with ``jax.debug.print``'s exact signature and error messages.

    This is what stands in for ``jax.debug.print`` while the extension is loaded, so a
    program behaves and fails as it does with JAX's own.
    """
    level = logging.INFO if _use_logging else None
    return _print_or_stage(
        _JAX_PRINT, level, fmt, args, kwargs, ordered, partitioned, skip_format_check, "sequential"
    )


def print_from(site: CallSite, fmt: str, *args: Any, ordered: bool = False) -> None:
    """Stage a print attributed to ``site`` (for prints staged away from the user's call)."""
    _staged_print(
        _PRINT,
        ordered=ordered,
        partitioned=False,
        skip_format_check=False,
        vmap_method="sequential",
        level=None,
        site=site,
    )(fmt, *args)


def log(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    vmap_method: str = "sequential",
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Like ``print`` but emits an INFO record on the ``jaxdbg_widgets`` logger at the call site."""
    return _print_or_stage(
        _LOG, logging.INFO, fmt, args, kwargs, ordered, partitioned, skip_format_check, vmap_method
    )


def _print_or_stage(
    names, level, fmt, args, kwargs, ordered, partitioned, skip_format_check, vmap_method
) -> Callable[..., None] | None:
    """Stage the print now when ``fmt`` is given, else return the second half of the two-call form."""
    check_vmap_method(vmap_method)
    stage = _staged_print(
        names,
        ordered=ordered,
        partitioned=partitioned,
        skip_format_check=skip_format_check,
        vmap_method=vmap_method,
        level=level,
    )
    return stage_or_defer(names.two_call, stage, fmt, args, kwargs)
