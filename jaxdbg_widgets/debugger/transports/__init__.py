"""How a blocked kernel still hears the user: one module per tier, chosen by capability."""
