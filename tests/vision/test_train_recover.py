"""Torch weights recovered from an ONNX export compute what the file does (needs the train extra)."""

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

torch = pytest.importorskip("torch")

from trained_nets import exported, trained_looking_net

from vision.train.dataset import Arrays
from vision.train.export import export_onnx
from vision.train.model import INPUT_SIZE
from vision.train.quantize import quantize
from vision.train.recover import dice_net_from_onnx, starting_weights


def crops(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (n, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)


# how close the recovered net computes to the file: a float file exactly; an int8 one also
# rounds each convolution's input to 8 bits, which the recovered float net does not
@pytest.mark.parametrize("int8, tolerance", [(False, 1e-3), (True, 0.08)])
def test_recovered_net_reads_as_the_file_does(tmp_path: Path, int8: bool, tolerance: float) -> None:
    path = exported(trained_looking_net(3), tmp_path / "dice.onnx")
    if int8:
        quantize(path, crops(64, 5))
    net = dice_net_from_onnx(path, crops(64, 0)).eval()
    x = crops(5, 1)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    from_file = dict(
        zip(
            names,
            session.run(None, {"image": x.transpose(0, 3, 1, 2).astype(np.float32)}),
            strict=True,
        )
    )
    with torch.no_grad():
        recovered = net(torch.from_numpy(x).permute(0, 3, 1, 2).float())
    for name, out in zip(("kind", "value", "state", "embedding"), recovered, strict=True):
        scale = max(1.0, float(np.abs(from_file[name]).max())) if int8 else 1.0
        np.testing.assert_allclose(out.numpy(), from_file[name], rtol=tolerance,
                                   atol=tolerance * scale)


def test_training_mode_starts_where_the_file_is(tmp_path: Path) -> None:
    """On a batch like its calibration crops, batch statistics give back the shipped features."""
    path = tmp_path / "dice.onnx"
    export_onnx(trained_looking_net(4), path)
    calibration = crops(128, 2)
    net = dice_net_from_onnx(path, calibration)
    x = torch.from_numpy(calibration).permute(0, 3, 1, 2).float()
    with torch.no_grad():
        shipped = net.eval().features((x - net.mean) / 64.0)
        training = net.train().features((x - net.mean) / 64.0)
    assert float((training - shipped).abs().max()) < 1e-3 * float(shipped.abs().max())


def test_a_file_of_another_network_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "other.onnx"
    export_onnx(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3)).eval(), path, outputs=("out",))
    with pytest.raises(ValueError, match="not a dice model"):
        dice_net_from_onnx(path, crops(8, 0))


def test_training_starts_alike_from_a_checkpoint_or_its_export(tmp_path: Path) -> None:
    net = trained_looking_net(5)
    torch.save(net.state_dict(), tmp_path / "dice.pt")
    export_onnx(net, tmp_path / "dice.onnx")

    def arrays(n: int, seed: int) -> Arrays:
        labels = np.zeros(n, np.int64)
        return Arrays(crops(n, seed), labels, labels, labels, np.zeros(n, bool))

    synthetic, real = arrays(40, 6), arrays(20, 7)
    x = torch.from_numpy(crops(4, 8)).permute(0, 3, 1, 2).float()
    with torch.no_grad():
        outs = [
            starting_weights(tmp_path / name, synthetic, real, count=50).eval()(x)
            for name in ("dice.pt", "dice.onnx")
        ]
    for a, b in zip(*outs, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3, atol=1e-3)
