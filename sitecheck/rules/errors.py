"""The error a rule condition raises when it cannot be parsed or checked."""

from __future__ import annotations

from sitecheck.errors import InputError


class RuleLanguageError(InputError):
    """A condition that is not valid rule language.

    ``str()`` is the message alone; the pack loader adds the pack and rule.

    Attributes
    ----------
    message : str
        What is wrong, in words a pack author can act on.
    offset : int
        0-based character offset of the bad spot in the condition text.
    """

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.args = (message, offset)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message

    def pointer(self, text: str) -> str:
        """The line of ``text`` holding the bad spot, and a caret under it."""
        line_start = text.rfind("\n", 0, self.offset) + 1
        line_end = text.find("\n", self.offset)
        line = text[line_start : len(text) if line_end == -1 else line_end]
        return f"{line}\n{' ' * (self.offset - line_start)}^"
