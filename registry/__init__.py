"""skill-registry: a static registry for agent skills."""

__version__ = "0.1.0"
