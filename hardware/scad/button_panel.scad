// Rollscribe button/LED panel: an open-bottomed box whose lid takes the arcade buttons and LEDs.
// Print it lid-down. Holes follow hardware/wiring.csv: ROLL (30 mm), CONFIRM (30 mm),
// UNDO and NEXT (24 mm); ready, reading, attention and the player RGB LED (5 mm each, in
// printed bezels); a sound hole over the buzzer; a cable slot in the back wall for the ribbon
// to the Pi's header.
//   openscad -o panel.stl button_panel.scad

width = 210;
depth = 90;
height = 42;      // room for the 30 mm buttons' microswitches
wall = 2.5;
lid = 2;          // Sanwa snap-in buttons grip panels up to about 2 mm thick
big_hole = 30;    // OBSF-30
small_hole = 24;  // OBSF-24
led_hole = 5.2;   // 5 mm LEDs, press-fit
rgb_hole = 5.2;
bezel = 9;
corner = 4;
$fn = 40;

buttons = [       // [x, y, hole]: left to right ROLL, CONFIRM, UNDO, NEXT
    [32, 38, big_hole], [82, 38, big_hole], [132, 38, small_hole], [175, 38, small_hole]
];
leds = [[32, 75], [72, 75], [112, 75], [152, 75]];  // ready, reading, attention, player RGB

module rounded_box(w, d, h, r) {
    hull() for (x = [r, w - r], y = [r, d - r]) translate([x, y, 0]) cylinder(r = r, h = h);
}

difference() {
    union() {
        difference() {
            rounded_box(width, depth, height, corner);
            translate([wall, wall, lid]) rounded_box(width - 2 * wall, depth - 2 * wall,
                                                    height, corner - wall / 2);
        }
        for (l = leds) translate([l[0], l[1], 0]) cylinder(d = bezel, h = lid + 3);
    }
    for (b = buttons) translate([b[0], b[1], -1]) cylinder(d = b[2], h = lid + 2);
    for (l = leds) translate([l[0], l[1], -1]) cylinder(d = led_hole, h = lid + 5);
    // buzzer sound holes
    for (dx = [-4, 0, 4], dy = [-4, 0, 4])
        translate([190 + dx, 75 + dy, -1]) cylinder(d = 2, h = lid + 2, $fn = 12);
    // cable slot (40-way ribbon or a bundle of jumper wires) in the back wall
    translate([width / 2 - 30, depth - wall - 1, height - 12]) cube([60, wall + 2, 13]);
}
