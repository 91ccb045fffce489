"""The terminal table of ``stud play``: a Textual app over the engine and the bots."""

from stud.tui.app import KEYS, PlayApp, PlaySettings, run_play

__all__ = ["KEYS", "PlayApp", "PlaySettings", "run_play"]
