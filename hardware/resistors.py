"""Series and base resistor values for the panel, worked out rather than guessed.

Run `python hardware/resistors.py` to print the table that is in hardware/README.md; a test checks
that hardware/wiring.csv uses these values. Change a forward voltage here when your LEDs' datasheet
says otherwise, and the value follows.
"""

from __future__ import annotations

from dataclasses import dataclass

E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)
GPIO_V = 3.3  # a Pi's GPIO high level
RAIL_5V = 5.0
VCE_SAT = 0.2  # 2N3904 saturated, at ~15 mA
VBE = 0.7
FORCED_BETA = 10  # base current a tenth of the collector's: the transistor is firmly on


def e12_at_least(ohms: float) -> int:
    """The smallest E12 value >= ohms: the LED then never draws more than planned."""
    for decade in (1, 10, 100, 1000, 10_000, 100_000):
        for base in E12:
            if base * decade >= ohms - 1e-9:
                return round(base * decade)
    raise ValueError(f"{ohms} ohm is beyond the E12 table here")


def e12_at_most(ohms: float) -> int:
    """The largest E12 value <= ohms: a base resistor that still saturates its transistor."""
    values = [round(b * d) for d in (1, 10, 100, 1000, 10_000, 100_000) for b in E12]
    return max(v for v in values if v <= ohms + 1e-9)


@dataclass(frozen=True)
class LedDrive:
    function: str  # the pin map name, or the RGB channel
    part: str
    forward_v: float  # typical Vf from the datasheet
    target_ma: float
    supply_v: float  # 3.3 V straight from GPIO, or 5 V through a transistor
    switched: bool  # through a 2N3904 low-side switch

    @property
    def drop_v(self) -> float:
        return self.supply_v - self.forward_v - (VCE_SAT if self.switched else 0.0)

    @property
    def series_ohm(self) -> int:
        return e12_at_least(self.drop_v / (self.target_ma / 1000))

    @property
    def current_ma(self) -> float:
        return 1000 * self.drop_v / self.series_ohm

    @property
    def base_ohm(self) -> int | None:
        if not self.switched:
            return None
        return base_resistor(self.current_ma)


def base_resistor(collector_ma: float) -> int:
    return e12_at_most((GPIO_V - VBE) / (collector_ma / FORCED_BETA / 1000))


LEDS = (
    LedDrive("ready", "Kingbright WP7113SGD (5 mm green, diffused)", 2.2, 5, GPIO_V, False),
    LedDrive("reading", "Kingbright WP7113SYD (5 mm yellow, diffused)", 2.1, 5, GPIO_V, False),
    LedDrive("attention", "Kingbright WP7113ID (5 mm red, diffused)", 2.0, 5, GPIO_V, False),
    LedDrive("player_red", "RGB LED red die (common anode, 5 mm diffused)", 2.0, 15, RAIL_5V, True),
    LedDrive("player_green", "RGB LED green die", 3.2, 15, RAIL_5V, True),
    LedDrive("player_blue", "RGB LED blue die", 3.2, 15, RAIL_5V, True),
)
BUZZER_MA = 30.0  # a 5 V active magnetic buzzer at its rated voltage


def gpio_budget_ma() -> float:
    """Current all panel GPIO pins source at once (the Pi's budget is ~50 mA in total)."""
    direct = sum(led.current_ma for led in LEDS if not led.switched)
    bases = [led.base_ohm for led in LEDS if led.base_ohm] + [base_resistor(BUZZER_MA)]
    return direct + sum(1000 * (GPIO_V - VBE) / ohm for ohm in bases)


def table() -> str:
    rows = ["| function | part | Vf | supply | series R | LED current | base R |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for led in LEDS:
        base = f"{led.base_ohm} ohm" if led.base_ohm else "-"
        rows.append(f"| {led.function} | {led.part} | {led.forward_v} V | {led.supply_v} V | "
                    f"{led.series_ohm} ohm | {led.current_ma:.1f} mA | {base} |")
    rows.append(f"| buzzer | 5 V active buzzer, {BUZZER_MA:.0f} mA | - | 5.0 V | - | - | "
                f"{base_resistor(BUZZER_MA)} ohm |")
    return "\n".join(rows) + f"\n\nAll panel GPIO pins together source {gpio_budget_ma():.1f} mA."


if __name__ == "__main__":
    print(table())
