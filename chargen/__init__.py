"""chargen: tabletop role-playing characters from each game's own creation procedure."""

__version__ = "0.2.1"
