"""DiceNets that look trained, for the tests of what is done with a trained model's file."""

import torch

from vision.train.model import DiceNet


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
