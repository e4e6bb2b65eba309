"""The notebook layer: the IPython extension, the ``%jaxdbg`` magic, formatters and output routing."""
