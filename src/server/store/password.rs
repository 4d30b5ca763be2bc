//! Passwords: a newtype that never prints its content, and argon2id hashing into PHC
//! strings (`$argon2id$v=19$m=7168,t=5,p=1$salt$hash`) with a random salt from the
//! operating system.

use std::fmt;
use std::str::FromStr;

use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use argon2::{Algorithm, Argon2, Params, Version};

use super::StoreError;

/// Argon2 memory cost in KiB (an OWASP-listed set with [`ARGON2_T`] and [`ARGON2_P`];
/// it keeps a delivering process under 20 MB).
pub const ARGON2_M_KIB: u32 = 7168;
/// Argon2 iterations.
pub const ARGON2_T: u32 = 5;
/// Argon2 parallelism.
pub const ARGON2_P: u32 = 1;

/// The parameters above, checked when the crate is compiled.
const PARAMS: Params = match Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None) {
    Ok(p) => p,
    Err(_) => panic!("invalid argon2 parameters"),
};

/// The longest password, in characters.
const MAX_LEN: usize = 64;

/// A password as a player typed it: 1 to 64 characters, none of them white space,
/// a quote (`"`, `'`, `` ` ``), a colon or a control character.
///
/// Its `Debug` and `Display` print `********`, so it cannot leak into a log or a reply.
///
/// ```
/// use yinsh_pbem::server::store::Password;
/// let p: Password = "s3cret!".parse().unwrap();
/// assert_eq!(format!("{p} {p:?}"), "******** ********");
/// assert!("two words".parse::<Password>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a text is not an acceptable password. It never quotes the password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPassword {
    /// Nothing was given.
    #[error("the password is empty; choose 1 to 64 characters without spaces, quotes or colons")]
    Empty,
    /// More than 64 characters.
    #[error("the password is {len} characters long; use at most 64")]
    TooLong {
        /// Its length in characters.
        len: usize,
    },
    /// A character that is not allowed.
    #[error(
        "character {at} of the password is {kind}; use no spaces, quotes, colons or control characters"
    )]
    BadChar {
        /// 1-based position of the first such character.
        at: usize,
        /// What it is: "a space", "a quote", "a colon" or "a control character".
        kind: &'static str,
    },
}

impl FromStr for Password {
    type Err = InvalidPassword;

    fn from_str(s: &str) -> Result<Password, InvalidPassword> {
        if s.is_empty() {
            return Err(InvalidPassword::Empty);
        }
        let len = s.chars().count();
        if len > MAX_LEN {
            return Err(InvalidPassword::TooLong { len });
        }
        for (i, c) in s.chars().enumerate() {
            let kind = match c {
                '"' | '\'' | '`' => "a quote",
                ':' => "a colon",
                c if c.is_whitespace() => "a space",
                c if c.is_control() => "a control character",
                _ => continue,
            };
            return Err(InvalidPassword::BadChar { at: i + 1, kind });
        }
        Ok(Password(s.to_string()))
    }
}

impl Password {
    /// The password itself, for hashing; nothing else should need it.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("********")
    }
}

impl fmt::Display for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("********")
    }
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, PARAMS)
}

/// Hashes `p` with argon2id (m = 7168 KiB, t = 5, p = 1) and a fresh 16-byte salt
/// from the operating system, giving a PHC string.
///
/// ```
/// use yinsh_pbem::server::store::{Password, hash_password, verify_password};
/// let p: Password = "hunter2".parse().unwrap();
/// let phc = hash_password(&p).unwrap();
/// assert!(phc.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"));
/// assert!(verify_password(&p, &phc));
/// ```
pub fn hash_password(p: &Password) -> Result<String, StoreError> {
    argon2()
        .hash_password(p.expose().as_bytes())
        .map(|h| h.to_string())
        .map_err(|source| StoreError::Hash { source })
}

/// Whether `p` is the password hashed in the PHC string `phc` (with the parameters
/// the string names). A malformed string matches nothing.
pub fn verify_password(p: &Password, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    argon2()
        .verify_password(p.expose().as_bytes(), &hash)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_position_and_kind_but_never_the_password() {
        let cases = [
            ("ab cd", 3, "a space"),
            ("ab\"cd", 3, "a quote"),
            ("it's", 3, "a quote"),
            ("a:b", 2, "a colon"),
            ("ab\u{7}", 3, "a control character"),
            ("tab\there", 4, "a space"),
        ];
        for (text, at, kind) in cases {
            let err = text.parse::<Password>().expect_err(text);
            assert_eq!(err, InvalidPassword::BadChar { at, kind }, "{text:?}");
            assert!(!err.to_string().contains(text), "{err}");
        }
        assert_eq!("".parse::<Password>(), Err(InvalidPassword::Empty));
        let long = "x".repeat(65);
        assert_eq!(
            long.parse::<Password>(),
            Err(InvalidPassword::TooLong { len: 65 })
        );
        assert!("x".repeat(64).parse::<Password>().is_ok());
        assert!("pässwörd€".parse::<Password>().is_ok());
    }

    #[test]
    fn a_malformed_phc_string_matches_nothing() {
        let p: Password = "abc".parse().expect("valid");
        assert!(!verify_password(&p, ""));
        assert!(!verify_password(&p, "abc"));
        assert!(!verify_password(&p, "$argon2id$v=19$m=7168,t=5,p=1$"));
    }
}
