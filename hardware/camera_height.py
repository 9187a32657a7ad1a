"""How high the camera must sit over the tray to see all of it, from its field of view.

The same formula is in scad/tray_arm.scad (which sizes the arm); a test renders the model and
checks that both agree. Run `python hardware/camera_height.py` for the table in the README.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Camera:
    name: str
    h_fov: float  # degrees, along the long side of the picture
    v_fov: float  # degrees, along the short side
    min_focus_mm: float


CAMERAS = {
    "cm3": Camera("Raspberry Pi Camera Module 3", 66.0, 41.0, 100),
    "cm3-wide": Camera("Raspberry Pi Camera Module 3 Wide", 102.0, 67.0, 50),
    # Logitech C920-class UVC webcam: 78 deg diagonal on 16:9 is about 70.4 x 43.3 deg.
    "usb": Camera("USB UVC webcam, 78 deg diagonal (C920 class)", 70.4, 43.3, 100),
}

TRAY_W, TRAY_D = 230.0, 150.0  # inner floor of the default tray (prints on a 256 mm bed)
MARGIN = 15.0  # picture beyond each inner wall, so dice against a wall are whole


def lens_height(camera: Camera, tray_w: float = TRAY_W, tray_d: float = TRAY_D,
                margin: float = MARGIN) -> float:
    """Lens height above the tray floor at which the tray plus margin just fills the picture
    (long side of the tray along the long side of the picture)."""
    half_w, half_d = tray_w / 2 + margin, tray_d / 2 + margin
    need_w = half_w / math.tan(math.radians(camera.h_fov / 2))
    need_d = half_d / math.tan(math.radians(camera.v_fov / 2))
    return max(need_w, need_d, camera.min_focus_mm)


def pixels_per_mm(camera: Camera, height: float, width_px: int = 1280) -> float:
    """Resolution on the tray floor for a capture `width_px` wide."""
    return width_px / (2 * height * math.tan(math.radians(camera.h_fov / 2)))


def table() -> str:
    rows = [f"Tray inner floor {TRAY_W:.0f} x {TRAY_D:.0f} mm, {MARGIN:.0f} mm margin each side.",
            "", "| camera | H x V FOV | lens height | px/mm at 1280 wide | a 16 mm d6 spans |",
            "| --- | --- | --- | --- | --- |"]
    for cam in CAMERAS.values():
        h = lens_height(cam)
        ppm = pixels_per_mm(cam, h)
        rows.append(f"| {cam.name} | {cam.h_fov:g} x {cam.v_fov:g} deg | {h:.0f} mm | "
                    f"{ppm:.2f} | {16 * ppm:.0f} px |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
