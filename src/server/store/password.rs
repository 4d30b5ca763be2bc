//! Password hashing: argon2id (the [`Password`] newtype itself is in `model.rs`) into PHC
//! strings (`$argon2id$v=19$m=7168,t=5,p=1$salt$hash`) with a random salt from the
//! operating system.

use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use argon2::{Algorithm, Argon2, Params, Version};

use super::StoreError;
use crate::server::model::Password;

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
    fn a_malformed_phc_string_matches_nothing() {
        let p: Password = "abc".parse().expect("valid");
        assert!(!verify_password(&p, ""));
        assert!(!verify_password(&p, "abc"));
        assert!(!verify_password(&p, "$argon2id$v=19$m=7168,t=5,p=1$"));
    }
}
