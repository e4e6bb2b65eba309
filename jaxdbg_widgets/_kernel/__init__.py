"""The only place that touches private IPython and ipykernel names, one small module per job.

``shell`` finds the running shell and kernel (the one "are we in a kernel" check); ``parent``
reads and restores the cell's parent header; ``stdin`` asks the front end for a line;
``subshell`` and ``restore`` are ipykernel 7's subshell routing of widget clicks and of a
reloaded page's requests; ``pump`` is ipykernel 6's shell pumping; ``messages`` says which
shell messages are widget traffic; ``busy_status`` keeps the kernel reading busy while a
breakpoint serves them; ``cell_output`` follows a running cell's output for an ended debugger
a reloaded page still draws; ``errors``, ``completion`` and ``cells`` adapt IPython's
one-line errors, ``%jaxdbg`` completion and cell file names; ``threads`` and ``signals`` wrap
CPython's asynchronous exceptions and the signal wakeup fd; ``control_handlers`` adds a request
type to an ipyparallel engine's control channel and ``ipp_control`` sends one from the
notebook's ipyparallel client (their probes run when ``jaxdbg_widgets.cluster`` loads the
extension on the engines). ``checks`` records every other module's
probe in :mod:`jaxdbg_widgets._capabilities` when the extension loads; the rest of the package
reads that table and never probes again. IPython and ipykernel are imported lazily.
"""
