//! The one generator left beside `yinsh_pbem::ai::Rng`, for the soak
//! (soak/runner.rs) only, whose seed was found with this stream: the 5,000-mail soak
//! from its seed with `Rng` never tells an owner of guessing. To go once the soak has
//! a new seed found with `Rng`.

/// xorshift64; seed it with an odd number (zero stays zero).
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
