//! Password hashing: argon2id (the [`Password`] newtype itself is in `model.rs`) into PHC
//! strings (`$argon2id$v=19$m=7168,t=5,p=1$salt$hash`) with a random salt from the
//! operating system. Argon2's working memory is allocated once per thread and reused
//! by every hash and check: a fresh 7 MiB block for each check, freed after it, left
//! the allocator's heap fragmented, and a `multiple` mail of a few password checks
//! peaked at 35 MB (the soak test found it; `tests/it/soak/memory.rs`).
//!
//! The tests that run the server in-process make their hashes cheap: inside
//! [`with_cheap_hashes`], the new hashes of the calling thread use [`CHEAP_PARAMS`]
//! (m = 8 KiB, t = 1) instead of the real parameters. A PHC string names its own
//! parameters, so such a hash is checked like any other, and checking it is cheap too.
//! Like the fault injection (`durable::fault`), the switch is compiled in only for
//! builds with debug assertions (what `cargo test` builds) or with the cargo feature
//! `fault-injection`; in a release build [`with_cheap_hashes`] only runs its closure,
//! so no release binary can make a cheap hash. Each thread starts with the real
//! parameters, so the tests of the hash itself and of memory never see cheap ones
//! (`docs/performance.md`, "Test suite time").

#[cfg(any(debug_assertions, feature = "fault-injection"))]
use std::cell::Cell;
use std::cell::RefCell;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};

use super::StoreError;
use crate::server::model::Password;

/// Argon2 memory cost in KiB (an OWASP-listed set with [`ARGON2_T`] and [`ARGON2_P`];
/// it keeps a delivering process under 20 MB).
pub const ARGON2_M_KIB: u32 = 7168;
/// Argon2 iterations.
pub const ARGON2_T: u32 = 5;
/// Argon2 parallelism.
pub const ARGON2_P: u32 = 1;

/// Bytes of a new hash's salt and output.
const SALT_LEN: usize = 16;
const OUTPUT_LEN: usize = 32;

/// The parameters above, checked when the crate is compiled.
const PARAMS: Params = match Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None) {
    Ok(p) => p,
    Err(_) => panic!("invalid argon2 parameters"),
};

/// The cheap parameters of the in-process tests' hashes ([`with_cheap_hashes`]):
/// m = 8 KiB (argon2's least), t = 1, p = 1.
pub const CHEAP_PARAMS: Params = match Params::new(8, 1, 1, None) {
    Ok(p) => p,
    Err(_) => panic!("invalid argon2 parameters"),
};

thread_local! {
    /// Argon2's working memory, grown to the largest `m` used and then kept.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

#[cfg(any(debug_assertions, feature = "fault-injection"))]
thread_local! {
    /// Whether this thread's new hashes use [`CHEAP_PARAMS`] (inside
    /// [`with_cheap_hashes`]).
    static CHEAP: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the new hashes of this thread made with [`CHEAP_PARAMS`], for the
/// tests that run the server in-process. Only builds with debug assertions or the
/// `fault-injection` feature have the switch; elsewhere `f` runs with the real
/// parameters.
///
/// ```
/// use yinsh_pbem::server::store::{Password, hash_password, verify_password, with_cheap_hashes};
/// let p: Password = "hunter2".parse().unwrap();
/// let phc = with_cheap_hashes(|| hash_password(&p)).unwrap();
/// if cfg!(debug_assertions) {
///     assert!(phc.starts_with("$argon2id$v=19$m=8,t=1,p=1$"));
/// }
/// assert!(verify_password(&p, &phc));
/// assert!(hash_password(&p).unwrap().contains("m=7168,t=5,p=1"));
/// ```
#[cfg(any(debug_assertions, feature = "fault-injection"))]
pub fn with_cheap_hashes<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the thread's switch back as it was, after a panic too.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CHEAP.set(self.0);
        }
    }
    let _restore = Restore(CHEAP.replace(true));
    f()
}

/// Runs `f`: a build without debug assertions or the `fault-injection` feature has
/// no cheap hashes.
#[cfg(not(any(debug_assertions, feature = "fault-injection")))]
pub fn with_cheap_hashes<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Give this thread's argon2 memory back (the next hash allocates it again): a run
/// does so before a robot thinks, so that the two never add up.
pub fn release_hash_memory() {
    MEMORY.with_borrow_mut(|memory| *memory = Vec::new());
}

/// The parameters of a new hash on this thread: the real ones, or [`CHEAP_PARAMS`]
/// inside [`with_cheap_hashes`].
fn new_hash_params() -> Params {
    #[cfg(any(debug_assertions, feature = "fault-injection"))]
    if CHEAP.get() {
        return CHEAP_PARAMS;
    }
    PARAMS
}

/// Argon2 of `password` and `salt` into `out`, in the thread's reused memory.
fn hash_into(
    argon: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    MEMORY.with_borrow_mut(|memory| {
        let blocks = argon.params().block_count();
        if memory.len() < blocks {
            memory.resize(blocks, Block::new());
        }
        argon.hash_password_into_with_memory(password, salt, out, &mut memory[..])
    })
}

/// Hashes `p` with argon2id (m = 7168 KiB, t = 5, p = 1; [`CHEAP_PARAMS`] inside
/// [`with_cheap_hashes`]) and a fresh 16-byte salt from the operating system, giving
/// a PHC string.
///
/// ```
/// use yinsh_pbem::server::store::{Password, hash_password, verify_password};
/// let p: Password = "hunter2".parse().unwrap();
/// let phc = hash_password(&p).unwrap();
/// assert!(phc.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"));
/// assert!(verify_password(&p, &phc));
/// ```
pub fn hash_password(p: &Password) -> Result<String, StoreError> {
    let hash_error = |source: argon2::password_hash::Error| StoreError::Hash { source };
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt).map_err(|_| hash_error(argon2::password_hash::Error::Crypto))?;
    let mut out = [0u8; OUTPUT_LEN];
    let params = new_hash_params();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    hash_into(&argon, p.expose().as_bytes(), &salt, &mut out).map_err(|e| hash_error(e.into()))?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(hash_error)?,
        salt: Some(Salt::new(&salt).map_err(|e| hash_error(e.into()))?),
        hash: Some(Output::new(&out).map_err(|e| hash_error(e.into()))?),
    };
    Ok(phc.to_string())
}

/// Whether `p` is the password hashed in the PHC string `phc` (with the algorithm,
/// version and parameters the string names). A malformed string matches nothing.
pub fn verify_password(p: &Password, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(hash.algorithm.as_str()) else {
        return false;
    };
    let version = match hash.version.map(Version::try_from).transpose() {
        Ok(v) => v.unwrap_or_default(),
        Err(_) => return false,
    };
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params);
    if hash_into(&argon, p.expose().as_bytes(), salt, &mut out).is_err() {
        return false;
    }
    // `Output`'s comparison takes the same time wherever the bytes differ.
    Output::new(&out).is_ok_and(|o| o == *expected)
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

    #[test]
    fn hashes_of_the_library_and_ours_check_each_other() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let p: Password = "correct-horse".parse().expect("valid");
        let q: Password = "correct-horsf".parse().expect("valid");
        let library = Argon2::new(Algorithm::Argon2id, Version::V0x13, PARAMS)
            .hash_password(p.expose().as_bytes())
            .expect("hash")
            .to_string();
        assert!(verify_password(&p, &library));
        assert!(!verify_password(&q, &library));
        let ours = hash_password(&p).expect("hash");
        let parsed = PasswordHash::new(&ours).expect("a PHC string");
        assert!(
            Argon2::default()
                .verify_password(p.expose().as_bytes(), &parsed)
                .is_ok()
        );
        assert!(!verify_password(&q, &ours));
        // A hash of other (smaller) parameters, as an older account may hold, after
        // the memory grew for the larger ones: still checked with its own.
        let small = Params::new(8, 1, 1, None).expect("params");
        let old = Argon2::new(Algorithm::Argon2id, Version::V0x13, small)
            .hash_password(p.expose().as_bytes())
            .expect("hash")
            .to_string();
        assert!(old.contains("m=8,t=1,p=1"), "{old}");
        assert!(verify_password(&p, &old));
        assert!(!verify_password(&q, &old));
    }
}
