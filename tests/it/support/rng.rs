//! The one generator left beside `yinsh_pbem::ai::Rng`, for email_game.rs and the
//! soak (soak/runner.rs) only, whose seeds were found with this stream. With `Rng`,
//! email_game's search first finds a game with a turn its assertions do not describe
//! (a move, then a removal), and the 5,000-mail soak from its seed never tells an
//! owner of guessing. To go once both have new seeds found with `Rng`.

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
