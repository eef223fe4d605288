"""Holds the DN grammar file (a link to the top-level grammar/drunter.lark)."""
