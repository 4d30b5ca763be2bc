//! Ray tables and the bit tricks of ring moves (yinsh-rules.md §3, rule 2). The
//! tables (built at compile time) hold, for every point, the points beyond it in each
//! of the six directions and the three lines through it. Moves are found for all of a
//! side's rings at once with occluded fills along each direction (the empty runs, the
//! groups of markers after them, the empty point after each group), counted with
//! popcounts or split among the rings; a given move is tested with a handful of masks
//! along its one line. docs/performance.md tells how and why.

use super::direction::Direction;
use super::point::{Point, VALID, for_each_point};

/// Ray directions in `Direction::ALL` order: even indices step forward (the bit index
/// rises), odd ones backward.
pub(crate) const DIRECTIONS: usize = 6;

/// `RAYS[d][b]`: the points beyond bit `b` in direction `Direction::ALL[d]`, up to the
/// edge (the point itself excluded). Rows 121..128 are padding so that indexing by
/// `b & 127` needs no bounds check.
pub(crate) static RAYS: [[u128; 128]; DIRECTIONS] = build_rays();

/// `LINES[b]`: the three whole lines (column, number, diagonal) through bit `b`, the
/// point included.
pub(crate) static LINES: [[u128; 3]; 128] = build_lines();

const fn build_rays() -> [[u128; 128]; DIRECTIONS] {
    let mut rays = [[0u128; 128]; DIRECTIONS];
    let mut d = 0;
    while d < DIRECTIONS {
        let dir = Direction::ALL[d];
        let (dl, dn) = dir.axis.step();
        let (dl, dn) = if dir.forward {
            (dl as i32, dn as i32)
        } else {
            (-(dl as i32), -(dn as i32))
        };
        let mut k = 0;
        while k < Point::ALL.len() {
            let p = Point::ALL[k];
            let (mut c, mut n) = (p.column() as i32 + dl, p.number() as i32 + dn);
            let mut mask = 0u128;
            while let Some(q) = Point::from_coords(c, n) {
                mask |= q.bit();
                c += dl;
                n += dn;
            }
            rays[d][p.bit_index() as usize] = mask;
            k += 1;
        }
        d += 1;
    }
    rays
}

const fn build_lines() -> [[u128; 3]; 128] {
    let rays = build_rays();
    let mut lines = [[0u128; 3]; 128];
    let mut k = 0;
    while k < Point::ALL.len() {
        let b = Point::ALL[k].bit_index() as usize;
        let mut a = 0;
        while a < 3 {
            lines[b][a] = rays[2 * a][b] | rays[2 * a + 1][b] | (1u128 << b);
            a += 1;
        }
        k += 1;
    }
    lines
}

/// The ray from bit `b` in direction index `d`.
#[cfg(test)]
fn ray(d: usize, b: u8) -> u128 {
    RAYS[d][(b & 127) as usize]
}

/// The lowest set bit of a mask, as a mask (0 for 0).
#[inline(always)]
const fn lowest(m: u128) -> u128 {
    m & m.wrapping_neg()
}

/// The highest set bit of a non-zero mask, as a mask.
#[inline(always)]
const fn highest(m: u128) -> u128 {
    1u128 << (127 - m.leading_zeros())
}

/// Bit 0 (a1, a corner of the hexagon) is never a point: a guard bit that makes the
/// highest bit of a mask defined when the mask is empty.
const GUARD: u128 = 1;
const _: () = assert!(VALID & GUARD == 0);

/// If the ring on bit `from` can move to bit `to` (yinsh-rules.md §3, rule 2), the
/// points it passes over: on one line, `to` empty, no ring between, and the markers
/// between form one group that ends next to `to` (no empty point after a marker).
/// `rings` and `markers` hold both sides'.
#[inline(always)]
pub(crate) fn ring_path(from: u8, to: u8, rings: u128, markers: u128) -> Option<u128> {
    let line = shared_line(from, to);
    let path = line & span(from, to);
    let gaps = path & !markers;
    let group = path & markers;
    // Every empty point of the path comes before every marker of it.
    let ordered = if to > from {
        gaps & !lowest(group).wrapping_sub(1) == 0
    } else {
        let h = highest(group | GUARD);
        gaps & (h | (h - 1)) == 0
    };
    let target = 1u128 << (to & 127);
    let clear = (rings | markers) & target == 0 && rings & path == 0;
    (line != 0 && clear && ordered).then_some(path)
}

/// The line through two distinct points, if they share one; 0 otherwise.
#[inline(always)]
fn shared_line(a: u8, b: u8) -> u128 {
    let (la, lb) = (&LINES[(a & 127) as usize], &LINES[(b & 127) as usize]);
    let line = (la[0] & lb[0]) | (la[1] & lb[1]) | (la[2] & lb[2]);
    if a == b { 0 } else { line }
}

/// The points strictly between two points, if they lie on one line; 0 otherwise (also
/// for neighbours and for a point and itself).
#[inline(always)]
pub(crate) fn between(a: u8, b: u8) -> u128 {
    shared_line(a, b) & span(a, b)
}

/// The bits strictly between bits `a` and `b`.
#[inline(always)]
fn span(a: u8, b: u8) -> u128 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let below_hi = (1u128 << (hi & 127)) - 1;
    let up_to_lo = (1u128 << (lo & 127)) | ((1u128 << (lo & 127)) - 1);
    below_hi & !up_to_lo
}

/// Every landing point of every ring of `rings` in one direction (`S`, `FWD`), found
/// for all rings at once with occluded fills (Kogge-Stone): the empty runs from the
/// rings, then the groups of markers right after them, then the empty point after
/// each group. The landing sets of two rings in one direction never overlap (a ring
/// stops any ring behind it), so the popcount is the number of moves.
#[inline(always)]
fn landings_along<const S: u32, const FWD: bool>(rings: u128, empty: u128, markers: u128) -> u128 {
    let sh1 = shift_n::<S, FWD, 1>;
    // Empty runs: a line has at most 10 points, so 9 steps; fills of 1, 2, 4, 8.
    let mut g = rings;
    let mut p = empty;
    g |= p & sh1(g);
    p &= sh1(p);
    g |= p & shift_n::<S, FWD, 2>(g);
    p &= shift_n::<S, FWD, 2>(p);
    g |= p & shift_n::<S, FWD, 4>(g);
    p &= shift_n::<S, FWD, 4>(p);
    g |= p & shift_n::<S, FWD, 8>(g);
    // Markers right after a run (or a ring), and the groups they start: at most 8
    // markers in a line of 10 with a ring before them and a point after; 1, 2, 4.
    let mut j = sh1(g) & markers;
    let mut q = markers;
    j |= q & sh1(j);
    q &= sh1(q);
    j |= q & shift_n::<S, FWD, 2>(j);
    q &= shift_n::<S, FWD, 2>(q);
    j |= q & shift_n::<S, FWD, 4>(j);
    (g & empty) | (sh1(j) & empty)
}

/// `N` steps at once along an axis: towards higher bits by `S * N` if `FWD`, else
/// lower. The board needs no padding (see `Point`): a step off the board lands on a
/// bit outside `VALID`, which every mask it meets here excludes.
#[inline(always)]
const fn shift_n<const S: u32, const FWD: bool, const N: u32>(m: u128) -> u128 {
    if FWD { m << (S * N) } else { m >> (S * N) }
}

/// The number of ring moves of the rings in `rings` (yinsh-rules.md §3, rule 2).
#[inline]
pub(crate) fn count_landings(rings: u128, occupied: u128, markers: u128) -> u32 {
    let empty = VALID & !occupied;
    total_ones([
        landings_along::<1, true>(rings, empty, markers),
        landings_along::<1, false>(rings, empty, markers),
        landings_along::<11, true>(rings, empty, markers),
        landings_along::<11, false>(rings, empty, markers),
        landings_along::<12, true>(rings, empty, markers),
        landings_along::<12, false>(rings, empty, markers),
    ])
}

/// The set bits of six masks, all together.
#[inline(always)]
#[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
fn total_ones(masks: [u128; 6]) -> u32 {
    masks.iter().map(|m| m.count_ones()).sum()
}

/// The set bits of six masks, all together. The baseline x86-64 target has no
/// `popcnt` instruction, and each `count_ones` becomes a bit-twiddling sequence of
/// about 15 instructions a 64-bit half; here the twelve halves share its last steps:
/// 4-bit counts of three halves are added before widening to bytes, and the bytes of
/// all twelve before the final multiply.
#[inline(always)]
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
fn total_ones(masks: [u128; 6]) -> u32 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const L8: u64 = 0x00ff_00ff_00ff_00ff;
    const H0001: u64 = 0x0001_0001_0001_0001;
    // Each nibble: the set bits of its 4 bits (at most 4).
    let nibbles = |x: u64| {
        let x = x - ((x >> 1) & M1);
        (x & M2) + ((x >> 2) & M2)
    };
    // Three halves: nibbles up to 12, then bytes up to 24.
    let bytes = |a: u128, b: u128| {
        let s = nibbles(a as u64) + nibbles((a >> 64) as u64) + nibbles(b as u64);
        let t = nibbles((b >> 64) as u64);
        let s = (s & M4) + ((s >> 4) & M4);
        s + ((t & M4) + ((t >> 4) & M4))
    };
    // Bytes up to 96 of a possible 255, then 16-bit lanes, whose sum (at most 768)
    // lands in the top lane.
    let sum = bytes(masks[0], masks[1]) + bytes(masks[2], masks[3]) + bytes(masks[4], masks[5]);
    let lanes = (sum & L8) + ((sum >> 8) & L8);
    (lanes.wrapping_mul(H0001) >> 48) as u32
}

/// Add the landings in direction index `D` (`S`, `FWD`) of each ring in `from` to
/// `acc`: the landings of all of `mine` at once, split among the rings. Along one
/// ray the rings further on own the landings beyond them, so the rings are visited
/// from the far end of the rays (the highest bit first for a forward direction) and
/// each takes what is on its ray and not yet taken. Rings on other lines of this
/// axis never take a point of this ray: parallel lines do not meet.
#[inline(always)]
fn split_landings<const D: usize, const S: u32, const FWD: bool>(
    from: &[u8; RING_SLOTS],
    acc: &mut [u128; RING_SLOTS],
    mine: u128,
    empty: u128,
    markers: u128,
) {
    let all = landings_along::<S, FWD>(mine, empty, markers);
    let mut taken = 0u128;
    let mut take = |a: &mut u128, b: u8| {
        let mine = all & RAYS[D][(b & 127) as usize] & !taken;
        taken |= mine;
        *a |= mine;
    };
    if FWD {
        for (a, &b) in acc.iter_mut().zip(from).rev() {
            take(a, b);
        }
    } else {
        for (a, &b) in acc.iter_mut().zip(from) {
            take(a, b);
        }
    }
}

/// Call `f(from, landings)` for each ring of `mine` (lowest bit first) with every
/// point it can land on.
#[inline(always)]
pub(crate) fn for_each_ring_landings(
    mine: u128,
    occupied: u128,
    markers: u128,
    mut f: impl FnMut(Point, u128),
) {
    // A side has at most 5 rings (`Setup` and placement see to it). Unused slots
    // hold bit 127, whose rays are empty, so every loop below runs 5 times.
    let mut from = [NO_RING; RING_SLOTS];
    let mut n = 0;
    for_each_point(mine, |p| {
        debug_assert!(n < RING_SLOTS, "more than {RING_SLOTS} rings");
        if n < RING_SLOTS {
            from[n] = p.bit_index();
        }
        n += 1;
    });
    let mut acc = [0u128; RING_SLOTS];
    let empty = VALID & !occupied;
    split_landings::<0, 1, true>(&from, &mut acc, mine, empty, markers);
    split_landings::<1, 1, false>(&from, &mut acc, mine, empty, markers);
    split_landings::<2, 11, true>(&from, &mut acc, mine, empty, markers);
    split_landings::<3, 11, false>(&from, &mut acc, mine, empty, markers);
    split_landings::<4, 12, true>(&from, &mut acc, mine, empty, markers);
    split_landings::<5, 12, false>(&from, &mut acc, mine, empty, markers);
    for (&b, &a) in from.iter().zip(acc.iter()).take(n) {
        f(Point::from_bit_index(b), a);
    }
}

/// The ring moves of a ring at bit `from` (among the rings `rings` and the markers
/// `markers`), ray by ray: call `f(jumped)` with the markers it jumps for each ray on
/// which it can land past markers, and say whether it can land somewhere without
/// jumping any. Along a ray a ring slides over the empty points before the nearest
/// occupied one; past a group of markers it lands only on the first point after it,
/// if that is empty. No fill is needed for one ring: two nearest-bit searches a ray.
#[inline(always)]
pub(crate) fn ring_jumps(from: u8, rings: u128, markers: u128, mut f: impl FnMut(u128)) -> bool {
    let occupied = rings | markers;
    let mut slides = false;
    for (d, rays) in RAYS.iter().enumerate() {
        let ray = rays[(from & 127) as usize];
        // Even directions step forward: the nearest point has the lowest bit.
        let nearest = |m: u128| match d % 2 {
            0 => m.trailing_zeros(),
            _ => 127 - m.leading_zeros(),
        } as usize;
        let blocking = ray & occupied;
        if blocking == 0 {
            slides |= ray != 0;
            continue;
        }
        let b = nearest(blocking);
        slides |= nearest(ray) != b;
        if rings & (1u128 << b) != 0 {
            continue;
        }
        // The first point past the group of markers that starts at `b`.
        let past = rays[b] & !markers;
        if past == 0 {
            continue;
        }
        let e = nearest(past);
        if rings & (1u128 << e) == 0 {
            f(ray & !rays[e] & markers);
        }
    }
    slides
}

/// Ring slots of `for_each_ring_landings`: a side's rings.
const RING_SLOTS: usize = 5;

/// An empty ring slot: bit 127 is no point, and `RAYS` is empty there.
const NO_RING: u8 = 127;

/// Does a ring of `rings` have at least one move? Any empty neighbour is one; else a
/// group of markers next to a ring with an empty point right after it.
#[inline]
pub(crate) fn any_landing(rings: u128, occupied: u128, markers: u128) -> bool {
    let empty = VALID & !occupied;
    let neighbours = (rings << 1) | (rings >> 1) | (rings << 11) | (rings >> 11);
    if (neighbours | (rings << 12) | (rings >> 12)) & empty != 0 {
        return true;
    }
    jump_exists(rings, markers, empty, |m| m << 1)
        || jump_exists(rings, markers, empty, |m| m >> 1)
        || jump_exists(rings, markers, empty, |m| m << 11)
        || jump_exists(rings, markers, empty, |m| m >> 11)
        || jump_exists(rings, markers, empty, |m| m << 12)
        || jump_exists(rings, markers, empty, |m| m >> 12)
}

/// Follow groups of markers from `rings` one step at a time with `step`: is there an
/// empty point right after one?
#[inline(always)]
fn jump_exists(rings: u128, markers: u128, empty: u128, step: impl Fn(u128) -> u128) -> bool {
    let mut group = step(rings) & markers;
    while group != 0 {
        let next = step(group);
        if next & empty != 0 {
            return true;
        }
        group = next & markers;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::rng::Rng;
    use super::*;

    #[test]
    fn rays_match_stepping_section_1() {
        for &p in &Point::ALL {
            for (d, dir) in Direction::ALL.into_iter().enumerate() {
                let mut want = 0u128;
                let mut q = p;
                while let Some(n) = dir.step(q) {
                    want |= n.bit();
                    q = n;
                }
                assert_eq!(ray(d, p.bit_index()), want, "{p} {dir:?}");
                assert_eq!(d % 2 == 0, dir.forward);
            }
        }
    }

    /// Landing points of the ring on `from` by stepping point by point (yinsh-rules.md
    /// §3, rule 2): the reference the bit tricks must match.
    fn stepped_landings(from: Point, rings: u128, markers: u128) -> u128 {
        let mut out = 0u128;
        for dir in Direction::ALL {
            let (mut p, mut jumped) = (from, false);
            while let Some(n) = dir.step(p) {
                p = n;
                if rings & p.bit() != 0 {
                    break;
                }
                if markers & p.bit() != 0 {
                    jumped = true;
                    continue;
                }
                out |= p.bit();
                if jumped {
                    break;
                }
            }
        }
        out
    }

    /// Random boards (the crate's `Rng`, fixed seed): up to 5 rings a side, markers
    /// from none to nearly full, so runs, jumps, blocked rings and long groups all
    /// occur.
    fn random_boards() -> impl Iterator<Item = (u128, u128, u128)> {
        let mut rng = Rng::new(0x1234_5678);
        (0..4000).map(move |k| {
            let density = k % 10;
            let (mut mine, mut theirs, mut markers) = (0u128, 0u128, 0u128);
            for &p in &Point::ALL {
                let roll = rng.below(100);
                if roll < 6 && mine.count_ones() < 5 {
                    mine |= p.bit();
                } else if roll < 12 && theirs.count_ones() < 5 {
                    theirs |= p.bit();
                } else if roll < 12 + 9 * density {
                    markers |= p.bit();
                }
            }
            (mine, theirs, markers)
        })
    }

    /// The ray from `from` that holds `to`, 0 if none.
    fn ray_through(from: Point, to: Point) -> u128 {
        (0..DIRECTIONS)
            .map(|d| ray(d, from.bit_index()))
            .find(|r| r & to.bit() != 0)
            .unwrap_or(0)
    }

    #[test]
    fn mask_landings_match_stepping_on_random_boards_section_3() {
        for (mine, theirs, markers) in random_boards() {
            let rings = mine | theirs;
            let occupied = rings | markers;
            let mut total = 0;
            let mut listed = Vec::new();
            for_each_ring_landings(mine, occupied, markers, |from, to| {
                listed.push((from, to));
            });
            let mut want_listed = Vec::new();
            for from in super::super::board::points_of(mine) {
                let want = stepped_landings(from, rings, markers);
                let mut got = 0u128;
                for &to in &Point::ALL {
                    let (f, t) = (from.bit_index(), to.bit_index());
                    if let Some(path) = ring_path(f, t, rings, markers) {
                        assert_eq!(path, between(f, t), "{from}-{to}");
                        assert_ne!(ray_through(from, to), 0, "{from}-{to}");
                        got |= to.bit();
                    }
                }
                assert_eq!(got, want, "{from}: rings {rings:#x} markers {markers:#x}");
                total += want.count_ones();
                want_listed.push((from, want));
            }
            assert_eq!(listed, want_listed);
            assert_eq!(count_landings(mine, occupied, markers), total);
            assert_eq!(any_landing(mine, occupied, markers), total > 0);
        }
    }

    /// `ring_jumps` against stepping: the markers each jumping landing passes over, in
    /// `Direction::ALL` order, and whether some landing jumps none.
    #[test]
    fn ring_jumps_match_stepping_on_random_boards_section_3() {
        for (mine, theirs, markers) in random_boards() {
            let rings = mine | theirs;
            for from in super::super::board::points_of(mine) {
                let (mut want, mut slides) = (Vec::new(), false);
                for dir in Direction::ALL {
                    let (mut p, mut jumped) = (from, 0u128);
                    while let Some(n) = dir.step(p) {
                        p = n;
                        if rings & p.bit() != 0 {
                            break;
                        }
                        if markers & p.bit() != 0 {
                            jumped |= p.bit();
                            continue;
                        }
                        match jumped {
                            0 => slides = true,
                            _ => {
                                want.push(jumped);
                                break;
                            }
                        }
                    }
                }
                let mut got = Vec::new();
                let got_slides = ring_jumps(from.bit_index(), rings, markers, |j| got.push(j));
                assert_eq!(
                    (got, got_slides),
                    (want, slides),
                    "{from}: {rings:#x} {markers:#x}"
                );
            }
        }
    }

    #[test]
    fn total_ones_adds_the_set_bits_of_six_masks() {
        let mut all = [u128::MAX; 6];
        assert_eq!(total_ones(all), 768);
        for (k, (mine, theirs, markers)) in random_boards().take(500).enumerate() {
            all = [
                mine,
                theirs,
                markers,
                !mine,
                mine ^ markers,
                (k as u128) << 60,
            ];
            let want: u32 = all.iter().map(|m| m.count_ones()).sum();
            assert_eq!(total_ones(all), want);
        }
    }

    #[test]
    fn between_is_the_points_strictly_inside_a_line_section_1() {
        for &a in &Point::ALL {
            for &b in &Point::ALL {
                let mut want = 0u128;
                if let Some((dir, len)) = super::super::direction::Axis::between(a, b) {
                    let mut q = a;
                    for _ in 1..len {
                        q = dir.step(q).unwrap();
                        want |= q.bit();
                    }
                }
                assert_eq!(between(a.bit_index(), b.bit_index()), want, "{a} {b}");
            }
        }
    }
}
