"""DiceNets that look trained, for the tests of what is done with a trained model's file."""

from pathlib import Path

import torch

from vision.train.export import export_onnx, write_card
from vision.train.model import DiceNet

# the least training summary a dice card's README lines read
TRAINING = {"minutes": 0.0, "steps": 0, "batch": 1, "synthetic_crops": 0, "real_crops": 0,
            "parameters": 1}


def trained_looking_net(seed: int) -> DiceNet:
    """A DiceNet whose batch norms hold statistics and scales of their own, as after training
    (a fresh one's are the identity, which would hide a folding mistake)."""
    torch.manual_seed(seed)
    net = DiceNet()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.normal_(0, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0, 0.2)
    return net.eval()


def exported(net: torch.nn.Module, path: Path) -> Path:
    """`net` exported to `path` with a card beside it (no accuracy), as a run writes it first."""
    export_onnx(net, path)
    write_card(path, "0.0.1", {}, TRAINING)
    return path
