"""The model card's measured part and models/README.md, without torch (re-measuring needs none)."""

from __future__ import annotations

import json
from pathlib import Path


def update_accuracy(model_path: Path, accuracy: dict) -> dict:
    """Replace the accuracy recorded in a model's card; returns the new card."""
    card_path = model_path.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card["accuracy"] = accuracy
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    return card


def write_readme(card: dict, path: Path) -> None:
    """models/README.md: what the model is and the accuracy its card records, as tables."""
    acc, train = card["accuracy"], card["training"]
    card_name = Path(card["file"]).with_suffix(".json").name
    intro = (
        "The dice classifier the reader ships with, written by `make model` (`python -m "
        f"vision.train`). The figures come from its card [{card_name}]({card_name}), measured "
        "on the exported ONNX file through `vision.classify.Classifier`."
    )
    outputs = (
        f"- outputs: kind over {', '.join(card['kinds'])}; value over {len(card['values'])} "
        "kind:value labels (cosine to prototypes of a 64-d embedding, so custom dice can be "
        "enrolled later); state flat/cocked/empty"
    )
    run = (
        f"- training: {train['minutes']} min on {train.get('threads', 1)} CPU thread(s), "
        f"{train['steps']} steps of "
        f"{train['batch']}, {train['synthetic_crops']} rendered crops + "
        f"{train['real_crops']} real photo crops"
    )
    lines = [
        f"# {card['file']} (version {card['version']})",
        "",
        intro,
        "",
        f"- input: {card['input']['size']} px square BGR crops ({card['input']['crop']})",
        outputs,
        f"- size: {card['size_bytes'] / 1e6:.2f} MB, {train['parameters']:,} parameters",
        run,
        "",
        f"Measured on: {acc['measured_on']}.",
        "",
    ]
    titles = {
        "real_held_out": "Held-out real photo sequences",
        "real_other_camera_d6": "Real d6 crops from another camera (never trained on)",
        "synthetic_held_out": "Held-out synthetic renders",
    }
    for key, title in titles.items():
        lines += [
            f"## {title}",
            "",
            "| kind | photos | kind right | value right |",
            "|---|---|---|---|",
        ]
        for kind, r in acc[key].items():
            lines.append(f"| {kind} | {r['n']} | {r['kind']:.2%} | {r['value']:.2%} |")
        lines.append("")
    unsure = acc["synthetic_unsure_rate"]
    lines += [
        "## Unsure signal",
        "",
        f"- renders of cocked dice reported unsure: {unsure.get('cocked', 0):.1%}",
        f"- rendered crops without a die reported unsure: {unsure.get('empty', 0):.1%}",
        f"- renders of flat, readable dice reported unsure: {unsure.get('flat_unsure', 0):.1%}",
    ]
    gate = acc.get("real_held_out_unsure_gate")
    if gate:
        lines.append(
            f"- held-out real photos: {gate['sure']:.1%} read as sure, and of those "
            f"{gate['value_right_when_sure']:.1%} have the right value"
        )
    lines.append("")
    path.write_text("\n".join(lines))
