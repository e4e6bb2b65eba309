"""What turns the debugger on: the extension's feature, the backend registered on import, and a
quit or interrupt shown in the cell as itself."""
