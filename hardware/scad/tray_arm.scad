// Rollscribe dice tray with a camera arm at the height the camera's field of view needs.
// Parametric: set the camera and the tray size, the arm follows.
//   openscad -o tray.stl -D 'part="tray"' -D 'camera="cm3"' tray_arm.scad
// Parts: "tray" (printed), "boom" (printed: holds the camera over the tray centre),
// "assembly" (both plus the 20x20 mm post you cut to POST_LENGTH_MM, for a look).
// The post is bought (aluminium 2020 extrusion or a square hardwood dowel): no printer is tall
// enough for it, and a cut post is stiffer than a printed one.

camera = "cm3";   // "cm3" (Camera Module 3, 66x41 deg), "cm3-wide" (102x67 deg), "usb" (70.4x43.3)
part = "assembly";
tray_w = 230;     // inner floor, along the picture's long side
tray_d = 150;     // inner floor, along the picture's short side
margin = 15;      // picture beyond each inner wall
wall = 3;
floor_t = 3;
wall_h = 45;      // dice stay in; low enough that the camera sees into the corners
post = 20;        // square post side
fit = 0.4;        // clearance of the sockets around the post
sock_wall = 4;
sock_depth = 25;
beam_w = 30;
beam_t = 8;
cam_stack = 12;   // plate underside to lens: standoffs 3 + board 1 + lens module 8
$fn = 32;

function h_fov(c) = c == "cm3" ? 66 : c == "cm3-wide" ? 102 : 70.4;
function v_fov(c) = c == "cm3" ? 41 : c == "cm3-wide" ? 67 : 43.3;
function min_focus(c) = c == "cm3-wide" ? 50 : 100;

lens_h = max((tray_w / 2 + margin) / tan(h_fov(camera) / 2),
             (tray_d / 2 + margin) / tan(v_fov(camera) / 2),
             min_focus(camera));
boom_z = floor_t + lens_h + cam_stack;          // underside of the camera plate
post_y = tray_d / 2 + wall + sock_wall + post / 2;
post_bottom = floor_t;                          // the tray socket is blind: floor_t of plastic
post_len = boom_z + beam_t - sock_wall - post_bottom;
echo(str("LENS_HEIGHT_MM=", lens_h));
echo(str("POST_LENGTH_MM=", post_len));

module tray() {
    difference() {
        union() {
            translate([-tray_w / 2 - wall, -tray_d / 2 - wall, 0])
                cube([tray_w + 2 * wall, tray_d + 2 * wall, floor_t + wall_h]);
            // socket block for the post, behind the back wall
            translate([-post / 2 - sock_wall, tray_d / 2, 0])
                cube([post + 2 * sock_wall, wall + post + 2 * sock_wall, floor_t + sock_depth]);
        }
        translate([-tray_w / 2, -tray_d / 2, floor_t])
            cube([tray_w, tray_d, wall_h + 1]);
        translate([-post / 2 - fit / 2, post_y - post / 2 - fit / 2, post_bottom])
            cube([post + fit, post + fit, sock_depth + 1]);
    }
}

module boom() {
    plate = 34;
    difference() {
        union() {
            translate([-beam_w / 2, -plate / 2, boom_z]) cube([beam_w, post_y + plate / 2, beam_t]);
            translate([-plate / 2, -plate / 2, boom_z]) cube([plate, plate, beam_t]);
            // socket over the post's top
            translate([-post / 2 - sock_wall, post_y - post / 2 - sock_wall,
                       boom_z + beam_t - sock_depth])
                cube([post + 2 * sock_wall, post + 2 * sock_wall, sock_depth]);
            // standoffs for the camera board (Camera Module 3: holes 21 x 12.5 mm, M2)
            for (x = [-10.5, 10.5], y = [-6.25, 6.25])
                translate([x, y, boom_z - 3]) cylinder(d = 5, h = 3.01);
        }
        translate([-post / 2 - fit / 2, post_y - post / 2 - fit / 2,
                   boom_z + beam_t - sock_depth - 1])
            cube([post + fit, post + fit, sock_depth - sock_wall + 1]);
        for (x = [-10.5, 10.5], y = [-6.25, 6.25])
            translate([x, y, boom_z - 4]) cylinder(d = 1.8, h = beam_t + 5);
        // slot for the camera's ribbon cable to pass up beside the beam
        translate([-9, plate / 2 - 6, boom_z - 1]) cube([18, 3, beam_t + 2]);
    }
}

if (part == "tray") tray();
else if (part == "boom") boom();
else {
    tray();
    boom();
    color("silver")
        translate([-post / 2, post_y - post / 2, post_bottom]) cube([post, post, post_len]);
}
