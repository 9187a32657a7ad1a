"""The shipped detector's weights read back out of its ONNX file, as the torch DiceDetector's
state dict, so it can be fine-tuned (issue 53) when no torch checkpoint of it was kept.

The exporter folds each batch norm into the convolution before it, so the file holds one weight
and one bias a convolution. They go into the net in the order the convolutions run (the graph
is that order too), each folded norm becoming one that passes its input through unchanged
(mean 0, variance 1 - eps, scale 1) with the folded bias as its shift: the net then computes
exactly what the file does. Fine-tuning must keep those norms' statistics as they are
(fit.train_detector does when it goes on from weights): batch statistics would undo the folding.
"""

from __future__ import annotations

from pathlib import Path

import onnx
import torch
from onnx import numpy_helper
from torch import nn

from vision.train.nets import DiceDetector


def _convs_in_running_order(net: nn.Module, dummy: torch.Tensor) -> list[nn.Conv2d]:
    order: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda m, *_: order.append(m))
             for m in net.modules() if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        net.eval()(dummy)
    for hook in hooks:
        hook.remove()
    return order


def detector_state_from_onnx(path: Path | str) -> dict[str, torch.Tensor]:
    """DiceDetector's state dict holding the weights of the detector ONNX file at `path`
    (exported by vision.train.ship.ship_detector); ValueError when its convolutions do not
    match the net's one for one in shape."""
    model = onnx.load(str(path))
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    net = DiceDetector()
    order = _convs_in_running_order(net, torch.zeros(1, 3, 64, 64))
    if len(order) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the net has {len(order)}")
    # each convolution followed by a norm: the modules as nets.py builds them, conv then norm
    norm_after = {}
    for seq in net.modules():
        if isinstance(seq, nn.Sequential):
            for a, b in zip(seq, list(seq)[1:], strict=False):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    norm_after[a] = b
    names = {m: n for n, m in net.named_modules()}
    state = dict(net.state_dict())
    for conv, node in zip(order, convs, strict=True):
        weight = torch.from_numpy(arrays[node.input[1]].copy())
        bias = torch.from_numpy(arrays[node.input[2]].copy()) if len(node.input) > 2 else None
        if weight.shape != conv.weight.shape:
            raise ValueError(f"{path}: {node.input[1]} is {tuple(weight.shape)}, "
                             f"{names[conv]} {tuple(conv.weight.shape)}")
        name = names[conv]
        state[f"{name}.weight"] = weight
        norm = norm_after.get(conv)
        if norm is None:
            state[f"{name}.bias"] = bias
            continue
        n = names[norm]
        state[f"{n}.weight"] = torch.ones(conv.out_channels)
        state[f"{n}.bias"] = bias if bias is not None else torch.zeros(conv.out_channels)
        state[f"{n}.running_mean"] = torch.zeros(conv.out_channels)
        state[f"{n}.running_var"] = torch.full((conv.out_channels,), 1.0 - norm.eps)
    return state


def detector_from_onnx(path: Path | str) -> DiceDetector:
    """The torch DiceDetector computing what the detector ONNX file at `path` computes."""
    net = DiceDetector()
    net.load_state_dict(detector_state_from_onnx(path))
    return net.eval()
