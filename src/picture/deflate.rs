//! The zlib stream (RFC 1950, deflate RFC 1951) of a picture's rows of palette
//! indices, made for pictures: besides a short hash chain (the general repeats), each
//! position tries the distances where a picture repeats itself (`periods`: the pixel
//! before, the row above, the point above), and takes the longer of two matches in a
//! row (lazy matching; a shorter search for the second when the first is good). It
//! packs the board a little tighter than zlib's default level with a quarter of its
//! work: that level probed up to 128 earlier places for every byte and took most of a
//! picture's time (issue 29; `docs/performance.md`).
//!
//! Kept against the crates by measure (issue 48; `cargo test --lib
//! picture::deflate_measure -- --ignored --nocapture`, 4 positions of a game, zlib
//! bytes and ms per picture): ours 29,588 B in 3.1 ms; miniz_oxide level 3 31,231 B
//! (+5.6%) in 4.8 ms, level 6 29,969 B (+1.3%) in 8.0 ms, level 9 29,239 B in 18 ms;
//! the png crate's `Compression::Fast` (fdeflate) 59,521 B in 4.0 ms (88,960 B
//! unfiltered), its levels 1-9 (flate2) 40,500-50,800 B with its filters and
//! miniz_oxide's bytes unfiltered.

/// Deflate's window: the farthest a match may reach back.
const WINDOW: usize = 1 << 15;
/// Bits of the hash of four bytes.
const HASH_BITS: u32 = 15;
/// Earlier places with the same four bytes tried for a match, at most.
const PROBES: usize = 8;
/// A match this long in hand leaves only one earlier place to try one byte later.
const GOOD: usize = 8;
/// Shorter matches than this are compared with the match one byte later.
const LAZY: usize = 32;
/// The longest match deflate can say.
const MAX_MATCH: usize = 258;
/// The places inside a match longer than this are left out of the hash chains (the
/// periods find the long repeats of a picture; inserting every place of its long
/// runs was most of the matching's work).
const MAX_INSERT: usize = 64;
/// A match of three bytes is worth its code only this near.
const FAR_THREE: usize = 4096;

/// One step of the compressed data: a byte as it is, or a copy of earlier bytes.
#[derive(Clone, Copy)]
enum Token {
    /// The byte itself.
    Literal(u8),
    /// `len` bytes copied from `dist` bytes back.
    Match { len: u16, dist: u16 },
}

/// The zlib stream of `data`; `periods` are distances where the data tends to repeat.
pub(crate) fn zlib(data: &[u8], periods: &[usize]) -> Vec<u8> {
    let tokens = Matcher::new(data).tokens(periods);
    let mut bits = Bits::default();
    // CMF: deflate with a 32 KiB window; FLG: no dictionary, check bits.
    bits.out.extend_from_slice(&[0x78, 0x5e]);
    block(&mut bits, &tokens);
    bits.flush();
    bits.out.extend_from_slice(&adler32(data).to_be_bytes());
    bits.out
}

/// The LZ77 pass: the hash chains of the bytes seen so far.
struct Matcher<'a> {
    data: &'a [u8],
    /// The last position of each hash.
    head: Box<[u32; 1 << HASH_BITS]>,
    /// The position before, with the same hash, of each position (by position modulo
    /// the window).
    prev: Box<[u32; WINDOW]>,
    /// Positions below this are in the chains.
    inserted: usize,
}

/// No position.
const NONE: u32 = u32::MAX;

/// A table of `N` positions, each `value`, made on the heap (its size known, so its
/// indices by a hash or modulo the window are not checked).
fn table<const N: usize>(value: u32) -> Box<[u32; N]> {
    match vec![value; N].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a vector of N values is N long"),
    }
}

impl<'a> Matcher<'a> {
    fn new(data: &'a [u8]) -> Matcher<'a> {
        Matcher {
            data,
            head: table(NONE),
            // Not filled: a position's entry is written when it goes in the chains,
            // and read only for a position in them, while still its own (it is
            // written over only by a position a window later, and a chain stops at
            // a position more than a window back: `longest`).
            prev: table(0),
            inserted: 0,
        }
    }

    /// The hash of the four bytes at `i` (there are four).
    fn hash(&self, i: usize) -> usize {
        let four = self.data.get(i..i + 4).and_then(|b| b.try_into().ok());
        hash(u32::from_le_bytes(four.unwrap_or([0; 4])))
    }

    /// Put every position below `upto` in the chains.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        let last = self.data.len().saturating_sub(3).min(upto);
        if self.inserted < last {
            // Every position below `last` has four bytes: each position's, in one
            // word, is the one before's moved a byte down and its fourth byte.
            let (from, data) = (self.inserted, self.data);
            let (head, prev) = (&mut *self.head, &mut *self.prev);
            let mut four = u32::from_le_bytes([0, data[from], data[from + 1], data[from + 2]]);
            for i in from..last {
                four = four >> 8 | u32::from(data[i + 3]) << 24;
                let h = hash(four);
                prev[i % WINDOW] = head[h];
                head[h] = i as u32;
            }
        }
        self.inserted = self.inserted.max(upto);
    }

    /// How many bytes at `i` equal those at `j` (`j < i`), up to `max`.
    fn common(&self, j: usize, i: usize, max: usize) -> usize {
        let (a, b) = (&self.data[j..j + max], &self.data[i..i + max]);
        // Sixteen bytes at a time (a picture's matches are long), then one by one.
        let (sixteens_a, _) = a.as_chunks::<16>();
        let (sixteens_b, _) = b.as_chunks::<16>();
        let mut n = 0;
        for (x, y) in sixteens_a.iter().zip(sixteens_b) {
            let (x, y) = (u128::from_le_bytes(*x), u128::from_le_bytes(*y));
            if x != y {
                return n + ((x ^ y).trailing_zeros() / 8) as usize;
            }
            n += 16;
        }
        n + a[n..]
            .iter()
            .zip(&b[n..])
            .take_while(|(x, y)| x == y)
            .count()
    }

    /// `best` (length, distance) made the match of `i` with `j` (`j < i`) when that
    /// is longer, up to `max`.
    #[inline(always)]
    fn try_at(&self, best: &mut (usize, usize), i: usize, j: usize, max: usize) {
        if best.0 < max && self.data[j + best.0] == self.data[i + best.0] {
            let len = self.common(j, i, max);
            if len > best.0 {
                *best = (len, i - j);
            }
        }
    }

    /// The longest match for position `i` (every position before it in the chains),
    /// trying the periods and up to `probes` earlier places of the chain: its length
    /// and distance, length 0 when none is worth it.
    fn longest(&self, i: usize, periods: &[usize], probes: usize) -> (usize, usize) {
        let max = MAX_MATCH.min(self.data.len() - i);
        let mut best = (0, 0);
        if max < 3 {
            return best;
        }
        // The periods are 1 to a window (`tokens`).
        for &d in periods {
            if d <= i {
                self.try_at(&mut best, i, i - d, max);
            }
        }
        if i + 4 <= self.data.len() {
            let mut at = self.head[self.hash(i)] as usize;
            for _ in 0..probes {
                // Stops at no place (`NONE`, above any `i`) and at one more than a
                // window back.
                if best.0 == max || at >= i || i - at > WINDOW {
                    break;
                }
                self.try_at(&mut best, i, at, max);
                // An earlier place, or the end of the chain: `NONE`, or a place
                // written over by one a window later.
                let next = self.prev[at % WINDOW] as usize;
                if next >= at {
                    break;
                }
                at = next;
            }
        }
        match best {
            (3, d) if d > FAR_THREE => (0, 0),
            (len, _) if len < 3 => (0, 0),
            found => found,
        }
    }

    /// The whole data as tokens.
    fn tokens(mut self, periods: &[usize]) -> Vec<Token> {
        let periods: Vec<usize> = periods
            .iter()
            .copied()
            .filter(|d| (1..=WINDOW).contains(d))
            .collect();
        let periods = periods.as_slice();
        let n = self.data.len();
        let mut tokens = Vec::with_capacity(n / 8);
        let mut i = 0;
        while i < n {
            self.insert_upto(i);
            let (mut len, mut dist) = self.longest(i, periods, PROBES);
            if (3..LAZY).contains(&len) && i + 1 < n {
                self.insert_upto(i + 1);
                // A match in hand of a good length makes a better one less likely: a
                // shorter search (as zlib's `good_length`), which also packed the
                // pictures a little tighter.
                let probes = match len >= GOOD {
                    true => 1,
                    false => PROBES / 2,
                };
                let (later, later_dist) = self.longest(i + 1, periods, probes);
                if later > len {
                    tokens.push(Token::Literal(self.data[i]));
                    i += 1;
                    (len, dist) = (later, later_dist);
                }
            }
            if len >= 3 {
                tokens.push(Token::Match {
                    len: len as u16,
                    dist: dist as u16,
                });
                if len > MAX_INSERT {
                    self.insert_upto(i + 1);
                    self.inserted = self.inserted.max(i + len);
                }
                i += len;
            } else {
                tokens.push(Token::Literal(self.data[i]));
                i += 1;
            }
        }
        tokens
    }
}

/// The hash of four bytes (the chains' key), read as a little-endian word.
fn hash(four: u32) -> usize {
    (four.wrapping_mul(0x9e37_79b1) >> (32 - HASH_BITS)) as usize
}

/// The first length of each length code (257..=285), and its extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// The first distance of each distance code (0..=29), and its extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which the code lengths' own code lengths are written.
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The code (index into the tables above) of a length 3..=258.
fn length_code(len: u16) -> usize {
    LENGTH_BASE.partition_point(|&b| b <= len) - 1
}

/// The code of a distance 1..=32768.
fn dist_code(dist: u16) -> usize {
    DIST_BASE.partition_point(|&b| b <= dist) - 1
}

/// Bits written least significant first, as deflate packs them.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    count: u32,
}

impl Bits {
    /// The low `n` bits of `value` (n <= 32).
    fn put(&mut self, value: u32, n: u32) {
        // Fewer than 32 bits wait in `acc`: with `n` more it still holds them all.
        self.acc |= u64::from(value) << self.count;
        self.count += n;
        if self.count >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.count -= 32;
        }
    }

    /// The bits waiting, the last byte padded with zeros.
    fn flush(&mut self) {
        for byte in self
            .acc
            .to_le_bytes()
            .iter()
            .take(self.count.div_ceil(8) as usize)
        {
            self.out.push(*byte);
        }
        self.acc = 0;
        self.count = 0;
    }
}

/// A prefix code: each symbol's length and its bits (reversed, ready to write).
struct Code {
    lengths: Vec<u8>,
    bits: Vec<u16>,
}

impl Code {
    /// The lengths of a Huffman code for `freqs`, none longer than `limit`.
    fn new(freqs: &[u32], limit: u8) -> Code {
        let lengths = code_lengths(freqs, limit);
        let bits = canonical(&lengths);
        Code { lengths, bits }
    }

    fn put(&self, bits: &mut Bits, symbol: usize) {
        bits.put(
            u32::from(self.bits[symbol]),
            u32::from(self.lengths[symbol]),
        );
    }
}

/// Huffman code lengths for `freqs` (a symbol of frequency 0 gets none), at most
/// `limit`; a lone symbol gets length 1.
fn code_lengths(freqs: &[u32], limit: u8) -> Vec<u8> {
    let mut lengths = vec![0u8; freqs.len()];
    let mut symbols: Vec<usize> = (0..freqs.len()).filter(|&s| freqs[s] > 0).collect();
    if symbols.len() <= 1 {
        if let Some(&s) = symbols.first() {
            lengths[s] = 1;
        }
        return lengths;
    }
    symbols.sort_by_key(|&s| (freqs[s], s));
    let n = symbols.len();
    // The tree, built from two queues: the sorted leaves, and the inner nodes as
    // they are made (in order of weight).
    let mut weight: Vec<u64> = symbols.iter().map(|&s| u64::from(freqs[s])).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0, n);
    for node in n..2 * n - 1 {
        let mut lightest = [0usize; 2];
        for pick in &mut lightest {
            let take_leaf = leaf < n && (inner >= node || weight[leaf] <= weight[inner]);
            *pick = if take_leaf { leaf } else { inner };
            if take_leaf {
                leaf += 1;
            } else {
                inner += 1;
            }
        }
        weight.push(weight[lightest[0]] + weight[lightest[1]]);
        parent[lightest[0]] = node;
        parent[lightest[1]] = node;
    }
    let mut depth = vec![0u32; 2 * n - 1];
    for k in (0..2 * n - 2).rev() {
        depth[k] = depth[parent[k]] + 1;
    }
    // Too long codes shortened, the others lengthened to pay (miniz's way).
    let limit = usize::from(limit);
    let mut count = vec![0u32; limit + 1];
    for &d in &depth[..n] {
        count[(d as usize).min(limit)] += 1;
    }
    let mut total: u64 = (1..=limit)
        .map(|l| u64::from(count[l]) << (limit - l))
        .sum();
    while total > 1 << limit {
        count[limit] -= 1;
        if let Some(l) = (1..limit).rev().find(|&l| count[l] > 0) {
            count[l] -= 1;
            count[l + 1] += 2;
        }
        total -= 1;
    }
    // The rarest symbols take the longest codes.
    let mut k = 0;
    for l in (1..=limit).rev() {
        for _ in 0..count[l] {
            lengths[symbols[k]] = l as u8;
            k += 1;
        }
    }
    lengths
}

/// The canonical codes of `lengths` (RFC 1951 3.2.2), bit-reversed for writing.
fn canonical(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for l in 1..16 {
        code = (code + count[l - 1]) << 1;
        next[l] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// `tokens` as the one, final, block with Huffman codes of its own.
fn block(bits: &mut Bits, tokens: &[Token]) {
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 30];
    for &t in tokens {
        match t {
            Token::Literal(b) => lit_freq[usize::from(b)] += 1,
            Token::Match { len, dist } => {
                lit_freq[257 + length_code(len)] += 1;
                dist_freq[dist_code(dist)] += 1;
            }
        }
    }
    lit_freq[256] = 1;
    if dist_freq.iter().all(|&f| f == 0) {
        dist_freq[0] = 1;
    }
    let lit = Code::new(&lit_freq, 15);
    let dist = Code::new(&dist_freq, 15);
    header(bits, &lit, &dist);
    for &t in tokens {
        match t {
            Token::Literal(b) => lit.put(bits, usize::from(b)),
            Token::Match { len, dist: d } => {
                let lc = length_code(len);
                lit.put(bits, 257 + lc);
                bits.put(
                    u32::from(len - LENGTH_BASE[lc]),
                    u32::from(LENGTH_EXTRA[lc]),
                );
                let dc = dist_code(d);
                dist.put(bits, dc);
                bits.put(u32::from(d - DIST_BASE[dc]), u32::from(DIST_EXTRA[dc]));
            }
        }
    }
    lit.put(bits, 256);
}

/// The start of the final block with dynamic codes: the codes `lit` and `dist`, told
/// by their lengths (themselves run-length coded with a code of their own).
fn header(bits: &mut Bits, lit: &Code, dist: &Code) {
    let nlit = 257.max(
        lit.lengths
            .iter()
            .rposition(|&l| l > 0)
            .map_or(0, |p| p + 1),
    );
    let ndist = 1.max(
        dist.lengths
            .iter()
            .rposition(|&l| l > 0)
            .map_or(0, |p| p + 1),
    );
    let all: Vec<u8> = lit.lengths[..nlit]
        .iter()
        .chain(&dist.lengths[..ndist])
        .copied()
        .collect();
    let runs = run_lengths(&all);
    let mut clen_freq = [0u32; 19];
    for &(symbol, _) in &runs {
        clen_freq[usize::from(symbol)] += 1;
    }
    let clen = Code::new(&clen_freq, 7);
    let nclen = 4.max(
        CLEN_ORDER
            .iter()
            .rposition(|&s| clen.lengths[s] > 0)
            .map_or(0, |p| p + 1),
    );
    // BFINAL, BTYPE = 2 (dynamic codes), then the sizes of the three codes.
    bits.put(1, 1);
    bits.put(2, 2);
    bits.put((nlit - 257) as u32, 5);
    bits.put((ndist - 1) as u32, 5);
    bits.put((nclen - 4) as u32, 4);
    for &s in &CLEN_ORDER[..nclen] {
        bits.put(u32::from(clen.lengths[s]), 3);
    }
    for &(symbol, extra) in &runs {
        clen.put(bits, usize::from(symbol));
        match symbol {
            16 => bits.put(u32::from(extra), 2),
            17 => bits.put(u32::from(extra), 3),
            18 => bits.put(u32::from(extra), 7),
            _ => {}
        }
    }
}

/// Code lengths as the code-length alphabet says them: (symbol, its extra bits'
/// value), with 16 (repeat the last 3-6 times), 17 (3-10 zeros), 18 (11-138 zeros).
fn run_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < lengths.len() {
        let l = lengths[k];
        let run = lengths[k..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 3 {
            let n = run.min(138);
            out.push(match n {
                3..=10 => (17, (n - 3) as u8),
                _ => (18, (n - 11) as u8),
            });
            k += n;
        } else if l != 0 && run >= 4 {
            out.push((l, 0));
            let n = (run - 1).min(6);
            out.push((16, (n - 3) as u8));
            k += 1 + n;
        } else {
            out.push((l, 0));
            k += 1;
        }
    }
    out
}

/// The Adler-32 checksum of `data` (zlib's trailer), by `simd-adler32` (summed a
/// byte at a time it cost 0.6 M instructions a picture).
fn adler32(data: &[u8]) -> u32 {
    simd_adler32::adler32(&data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_is_adler32() {
        // RFC 1950's checksum of "Wikipedia", and of nothing.
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
        assert_eq!(adler32(b""), 1);
        // Past the 5552 bytes after which the sums must be reduced.
        let long: Vec<u8> = (0..100_000u32).map(|k| (k * 7 % 251) as u8).collect();
        let (mut a, mut b) = (1u64, 0u64);
        for &x in &long {
            a = (a + u64::from(x)) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!(adler32(&long), (b << 16 | a) as u32);
    }

    #[test]
    fn lengths_and_distances_find_their_codes() {
        assert_eq!(length_code(3), 0);
        assert_eq!(length_code(10), 7);
        assert_eq!(length_code(11), 8);
        assert_eq!(length_code(257), 27);
        assert_eq!(length_code(258), 28);
        assert_eq!(dist_code(1), 0);
        assert_eq!(dist_code(5), 4);
        assert_eq!(dist_code(32768), 29);
    }
}
