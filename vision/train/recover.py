"""A DiceNet's torch weights taken back from its ONNX export, to train on from a shipped model.

Why: a checkout's only copy of the dice model's weights is models/dice.onnx (torch checkpoints
stay in the gitignored artifacts/ of the machine that trained them). Training on from the
shipped model (the d4 expert; a table's own photos) needs them as a DiceNet. The export folds
each batch norm into the convolution before it, so the recovered net's batch norms are set to
give back exactly the folded convolution in eval mode, and, with running statistics measured on
`calibration` crops, nearly so in training mode too, where a batch's own statistics replace the
running ones: training starts from the shipped model, not from a disturbed copy of it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import nn

from vision.train.dataset import Arrays
from vision.train.model import DiceNet
from vision.train.train import TrainConfig

if TYPE_CHECKING:
    import onnx

# the heads' and buffers' initializers keep their torch names in the export
NAMED = ("prototypes", "mean", "kind.weight", "kind.bias", "state.weight", "state.bias",
         "embed.weight", "embed.bias")


def _initializers(path: Path) -> tuple[dict[str, np.ndarray], list[tuple[str, str]]]:
    """The file's weights as float32 arrays by name (an int8 file's, see vision.train.quantize,
    dequantized under the name their DequantizeLinear gives them), and each convolution's
    (weight, bias) names in the graph's order."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in arrays:
            arrays[node.output[0]] = _dequantized(node, arrays)
    convs = [(n.input[1], n.input[2]) for n in graph.node if n.op_type == "Conv"]
    return arrays, convs


def _dequantized(node: onnx.NodeProto, arrays: dict[str, np.ndarray]) -> np.ndarray:
    """(stored - zero point) x scale, per channel along the node's axis when the scale is a row."""
    stored, scale = arrays[node.input[0]], arrays[node.input[1]]
    zero = arrays[node.input[2]] if len(node.input) > 2 else np.zeros_like(scale)
    if scale.ndim:
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        shape = [1] * stored.ndim
        shape[axis] = -1
        scale, zero = scale.reshape(shape), zero.reshape(shape)
    return ((stored.astype(np.float32) - zero.astype(np.float32)) * scale).astype(np.float32)


def dice_net_from_onnx(path: Path, calibration: np.ndarray) -> DiceNet:
    """The DiceNet exported to `path`, its batch norms calibrated on `calibration` crops
    ((N, S, S, 3) uint8 BGR, a few hundred or more of what it will train on). ValueError when the
    file is not a DiceNet export of this code's architecture."""
    arrays, convs = _initializers(path)
    net = DiceNet()
    layers = [i for i, m in enumerate(net.features) if isinstance(m, nn.Conv2d)]
    missing = [name for name in NAMED if name not in arrays]
    if missing or len(convs) != len(layers):
        raise ValueError(
            f"{path} is not a dice model of this architecture ({len(convs)} convolutions, "
            f"{len(layers)} expected; missing {', '.join(missing) or 'nothing'})"
        )
    state = net.state_dict()
    folded = {name: arrays[name] for name in NAMED}
    for layer, (weight, bias) in zip(layers, convs, strict=True):
        folded[f"features.{layer}.weight"] = arrays[weight]
        folded[f"features.{layer + 1}.bias"] = arrays[bias]
    for name, value in folded.items():
        if tuple(value.shape) != tuple(state[name].shape):
            raise ValueError(f"{path}: {name} is {value.shape}, this DiceNet's {state[name].shape}")
        state[name] = torch.from_numpy(np.array(value, np.float32))
    for layer in layers:  # batch norm as the identity: the net computes the folded convolutions
        norm = net.features[layer + 1]
        state[f"features.{layer + 1}.weight"] = torch.ones(norm.num_features)
        state[f"features.{layer + 1}.running_mean"] = torch.zeros(norm.num_features)
        state[f"features.{layer + 1}.running_var"] = torch.full((norm.num_features,), 1 - norm.eps)
    net.load_state_dict(state)
    _calibrate(net, layers, calibration)
    return net


def _calibrate(net: DiceNet, layers: list[int], crops: np.ndarray) -> None:
    """Give each batch norm the statistics of its convolution's output on `crops`, and a scale
    and shift that undo them: the same function in eval mode, and in training mode on batches
    like the crops."""
    stats: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}

    def keep(layer: int) -> Callable[[nn.Module, object, torch.Tensor], None]:
        def hook(_module: nn.Module, _inputs: object, out: torch.Tensor) -> None:
            stats[layer] = (out.mean((0, 2, 3)), out.var((0, 2, 3), unbiased=False))

        return hook

    hooks = [net.features[i].register_forward_hook(keep(i)) for i in layers]
    net.eval()
    with torch.no_grad():
        net(torch.from_numpy(crops).permute(0, 3, 1, 2).float())
    for hook in hooks:
        hook.remove()
    with torch.no_grad():
        for layer in layers:
            norm: nn.BatchNorm2d = net.features[layer + 1]
            mean, var = stats[layer]
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.add_(mean)


def starting_weights(path: Path, synthetic: Arrays, real: Arrays, count: int = 1024) -> DiceNet:
    """`--init`'s weights: a torch checkpoint (.pt), or a dice model's ONNX file taken back with
    its batch norms calibrated on `count` training crops, renders and real ones in the share a
    training batch mixes them (TrainConfig.real_fraction)."""
    net = DiceNet()
    if path.suffix != ".onnx":
        net.load_state_dict(torch.load(path))
        return net
    rng = np.random.default_rng(0)
    n_real = min(len(real), round(count * TrainConfig.real_fraction))
    picks = [
        arrays.images[rng.choice(len(arrays), n, replace=False)]
        for arrays, n in ((synthetic, min(len(synthetic), count - n_real)), (real, n_real))
    ]
    return dice_net_from_onnx(path, np.concatenate(picks))
