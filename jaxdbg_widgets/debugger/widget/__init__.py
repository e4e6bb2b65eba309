"""The debugger widget, its static HTML twin, and the ended widgets a reloaded page draws."""
