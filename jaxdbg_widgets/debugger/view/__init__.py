"""What a front end draws of a session: the view state as JSON under a byte budget, and its
TypedDicts. Imports the session models, never a front end."""
