"""One root error for the reader, so callers catch VisionError and show a clear message.

Each subclass names what failed (model, camera, image); all are RuntimeErrors because they come
from the outside world (files, devices), not from a caller's mistake.
"""

from __future__ import annotations


class VisionError(RuntimeError):
    """Anything the vision package cannot do; the message is meant for a player to read."""

    fault = "camera"  # the table's fault kind; read by name so the table never imports vision


class ModelError(VisionError):
    """The ONNX model file is missing, corrupt, or does not match its JSON card."""

    fault = "model"


class CameraError(VisionError):
    """The camera is gone, cannot be opened, or hands back garbage frames."""


class ImageError(VisionError):
    """An image file cannot be read or decoded, or an array is not a BGR image."""
