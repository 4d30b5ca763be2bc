//! DKIM signatures (RFC 6376, Ed25519 by RFC 8463) of the mails the server sends:
//! [`DkimKey::load`] reads the `[dkim]` key file (PEM: PKCS #8 RSA or Ed25519, or
//! PKCS #1 RSA), [`DkimKey::sign`] puts a `DKIM-Signature` header in front of a
//! built mail as it leaves ([`super::transport::flush`]), and [`DkimKey::record`] is
//! the TXT record to publish at [`DkimKey::record_name`].
//!
//! Canonicalization is relaxed/relaxed (it survives the re-folding and the line end
//! changes of relays and of the sendmail path); the signature covers the headers a
//! reader sees and the threading headers, each occurrence bottom up, and over-signs
//! (RFC 6376 §8.15) those a reader sees, so none can be added on the way. No `x=`
//! (expiry) is written: a reply is signed as it leaves, and the signature must still
//! verify when a reader's mail program or a forwarder checks it days later; `t=`
//! says when it was made. A key file others may read is a `check-config` problem
//! ([`exposed_mode`]). The cryptography
//! is ring's (the TLS library's own); the tests verify the signatures with an
//! independent verifier (dkimpy), the public key given directly.
//!
//! Kept rather than mail-auth (issue 48), measured by `cargo tree -e normal` in a
//! scratch crate with our mail-parser pin: 0.13.3 is mail-auth's last release on
//! mail-parser 0.11 (0.14 takes 1.0, a second mail-parser); its `ring` feature turns
//! on its DNS resolver (hickory-resolver 0.26, tokio): 58 crates this project does not
//! have; `rust-crypto` instead brings 45 (RustCrypto's rsa and ed25519-dalek, a second
//! crypto stack beside ring). A scratch binary signing with it (`ring`) is 1.40 MB
//! stripped of debug info, against 0.72 MB with mail-parser alone. It over-signs a
//! header present only when given its name twice (a side effect of its `h=` matching).

use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ring::rand::SystemRandom;
use ring::signature::{Ed25519KeyPair, KeyPair as _, RSA_PKCS1_SHA256, RsaKeyPair};
use rustls_pki_types::PrivateKeyDer;
use rustls_pki_types::pem::PemObject as _;
use sha2::{Digest as _, Sha256};

/// The headers signed, each occurrence (RFC 6376 §5.4.1: at least From).
const SIGNED: [&str; 13] = [
    "from",
    "to",
    "cc",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "auto-submitted",
];

/// The headers over-signed (RFC 6376 §8.15): listed in `h=` once more than they
/// occur, so that one added on the way (a second `Subject:` on top) breaks the
/// signature, and one absent is listed once, so it cannot be added.
const OVER_SIGNED: [&str; 9] = [
    "from",
    "to",
    "cc",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "content-type",
    "mime-version",
];

/// A loaded DKIM signing key with the domain and selector it signs for.
pub struct DkimKey {
    domain: String,
    selector: String,
    key: Key,
}

enum Key {
    Rsa(RsaKeyPair),
    Ed25519(Ed25519KeyPair),
}

impl fmt::Debug for DkimKey {
    /// Names the key, never its secret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DkimKey({} key for {})",
            self.algorithm(),
            self.record_name()
        )
    }
}

/// Why a DKIM key cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DkimError {
    /// The key file cannot be read.
    #[error("cannot read the DKIM key file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file holds no private key in PEM.
    #[error(
        "the DKIM key file {} holds no PEM private key; make one with \
         `openssl genpkey -algorithm ed25519 -out {0}` or \
         `openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:2048 -out {0}`",
        path.display()
    )]
    NotPem {
        /// The file.
        path: PathBuf,
    },
    /// The key is neither RSA (2048 bits or more) nor Ed25519.
    #[error(
        "the DKIM key file {} holds a key that cannot sign DKIM ({reason}): use an \
         Ed25519 key or an RSA key of 2048 to 8192 bits",
        path.display()
    )]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What the crypto library said.
        reason: String,
    },
    /// The domain or selector cannot be a DNS name.
    #[error(
        "[dkim] {field} = {found:?} is not a DNS name (letters, digits, `-` and `.`), \
         e.g. domain = \"example.org\", selector = \"yinsh\""
    )]
    BadName {
        /// `domain` or `selector`.
        field: &'static str,
        /// The value as written.
        found: String,
    },
    /// The mail has no header/body separation or no From.
    #[error("the mail cannot be signed: {reason}")]
    BadMail {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The crypto library failed to sign.
    #[error("DKIM signing failed")]
    Sign,
}

impl DkimKey {
    /// Reads the private key in `key_file` for `selector._domainkey.domain`.
    pub fn load(domain: &str, selector: &str, key_file: &Path) -> Result<DkimKey, DkimError> {
        let domain = dns_name("domain", domain)?;
        let selector = dns_name("selector", selector)?;
        let pem = std::fs::read(key_file).map_err(|source| DkimError::Read {
            path: key_file.to_path_buf(),
            source,
        })?;
        let der = PrivateKeyDer::from_pem_slice(&pem).map_err(|_| DkimError::NotPem {
            path: key_file.to_path_buf(),
        })?;
        let unsupported = |reason: String| DkimError::Unsupported {
            path: key_file.to_path_buf(),
            reason,
        };
        let key = match der {
            PrivateKeyDer::Pkcs8(p) => {
                let bytes = p.secret_pkcs8_der();
                match Ed25519KeyPair::from_pkcs8_maybe_unchecked(bytes) {
                    Ok(k) => Key::Ed25519(k),
                    Err(_) => Key::Rsa(
                        RsaKeyPair::from_pkcs8(bytes).map_err(|e| unsupported(e.to_string()))?,
                    ),
                }
            }
            PrivateKeyDer::Pkcs1(p) => Key::Rsa(
                RsaKeyPair::from_der(p.secret_pkcs1_der())
                    .map_err(|e| unsupported(e.to_string()))?,
            ),
            _ => return Err(unsupported("an EC key in SEC1 form".to_string())),
        };
        Ok(DkimKey {
            domain,
            selector,
            key,
        })
    }

    /// `rsa-sha256` or `ed25519-sha256`.
    pub fn algorithm(&self) -> &'static str {
        match self.key {
            Key::Rsa(_) => "rsa-sha256",
            Key::Ed25519(_) => "ed25519-sha256",
        }
    }

    /// Where the key's TXT record goes: `<selector>._domainkey.<domain>`.
    pub fn record_name(&self) -> String {
        format!("{}._domainkey.{}", self.selector, self.domain)
    }

    /// The TXT record to publish: `v=DKIM1; k=rsa; p=<base64>` (the RSA key as a
    /// SubjectPublicKeyInfo, as `openssl pkey -pubout` writes it) or
    /// `v=DKIM1; k=ed25519; p=<base64 of the 32 bytes>`.
    pub fn record(&self) -> String {
        match &self.key {
            Key::Rsa(k) => format!(
                "v=DKIM1; k=rsa; p={}",
                BASE64.encode(rsa_spki(k.public_key().as_ref()))
            ),
            Key::Ed25519(k) => format!(
                "v=DKIM1; k=ed25519; p={}",
                BASE64.encode(k.public_key().as_ref())
            ),
        }
    }

    /// `mail` (CRLF line ends, as built) with a `DKIM-Signature` header in front,
    /// signed at `now` (unix seconds).
    pub fn sign(&self, mail: &[u8], now: u64) -> Result<Vec<u8>, DkimError> {
        let split = find(mail, b"\r\n\r\n").ok_or(DkimError::BadMail {
            reason: "no empty line after the headers",
        })?;
        let (head, body) = (&mail[..split + 2], &mail[split + 4..]);
        let fields = fields(head);
        if !fields
            .iter()
            .any(|(name, _)| name.trim_ascii().eq_ignore_ascii_case(b"from"))
        {
            return Err(DkimError::BadMail {
                reason: "no From header",
            });
        }
        let (names, canon) = signed_headers(&fields);
        let bh = BASE64.encode(Sha256::digest(relaxed_body(body)));
        let unsigned = format!(
            "DKIM-Signature: v=1; a={}; c=relaxed/relaxed; d={}; s={}; t={now};\r\n\
             \th={};\r\n\tbh={bh};\r\n\tb=",
            self.algorithm(),
            self.domain,
            self.selector,
            names.join(":"),
        );
        let mut data = canon;
        let (name, value) = unsigned.split_once(':').unwrap_or(("", ""));
        data.extend_from_slice(relaxed_header(name, value).trim_ascii_end());
        let b = BASE64.encode(self.raw_sign(&data)?);
        let mut out = Vec::with_capacity(mail.len() + unsigned.len() + b.len() + 16);
        out.extend_from_slice(unsigned.as_bytes());
        for (i, chunk) in b.as_bytes().chunks(72).enumerate() {
            if i > 0 {
                out.extend_from_slice(b"\r\n\t");
            }
            out.extend_from_slice(chunk);
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(mail);
        Ok(out)
    }

    /// The signature of `data`: RSASSA-PKCS1-v1_5 over SHA-256, or Ed25519 over the
    /// SHA-256 of `data` (RFC 8463 §3).
    fn raw_sign(&self, data: &[u8]) -> Result<Vec<u8>, DkimError> {
        match &self.key {
            Key::Rsa(k) => {
                let mut sig = vec![0; k.public().modulus_len()];
                k.sign(&RSA_PKCS1_SHA256, &SystemRandom::new(), data, &mut sig)
                    .map_err(|_| DkimError::Sign)?;
                Ok(sig)
            }
            Key::Ed25519(k) => Ok(k.sign(&Sha256::digest(data)).as_ref().to_vec()),
        }
    }
}

/// The permission bits of `key_file` when its group or others may read or write it
/// (`mode & 0o077`): anyone on the machine who reads it can sign mail for the domain.
/// `None` when only its owner may, or when it cannot be read (`DkimKey::load` says
/// why).
pub fn exposed_mode(key_file: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(key_file).ok()?.permissions().mode() & 0o7777;
    (mode & 0o077 != 0).then_some(mode)
}

/// `value` checked as a DNS name for `[dkim] field`, lowercased.
fn dns_name(field: &'static str, value: &str) -> Result<String, DkimError> {
    let ok = !value.is_empty()
        && value.len() <= 253
        && value.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    if ok {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(DkimError::BadName {
            field,
            found: value.to_string(),
        })
    }
}

/// The first position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The header fields of `head` (each ending in CRLF), as (name, value with its folds).
fn fields(head: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut out: Vec<(&[u8], &[u8])> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 1 < head.len() {
        let line_end = head[i] == b'\r' && head[i + 1] == b'\n';
        let folded = head.get(i + 2).is_some_and(|b| *b == b' ' || *b == b'\t');
        if line_end && !folded {
            let field = &head[start..i];
            if let Some(colon) = field.iter().position(|b| *b == b':') {
                out.push((&field[..colon], &field[colon + 1..]));
            }
            start = i + 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    out
}

/// The names for `h=` (each occurrence of a signed header, bottom up, then once more
/// for an over-signed one: a name with no field left to match adds nothing to the
/// hash, RFC 6376 §5.4.2) and the relaxed canonical form of those fields, in that
/// order.
fn signed_headers(fields: &[(&[u8], &[u8])]) -> (Vec<String>, Vec<u8>) {
    let mut names = Vec::new();
    let mut canon = Vec::new();
    for want in SIGNED {
        for (name, value) in fields.iter().rev() {
            if name.trim_ascii().eq_ignore_ascii_case(want.as_bytes()) {
                names.push(want.to_string());
                canon.extend_from_slice(&relaxed_header(
                    &String::from_utf8_lossy(name),
                    &String::from_utf8_lossy(value),
                ));
            }
        }
        if OVER_SIGNED.contains(&want) {
            names.push(want.to_string());
        }
    }
    (names, canon)
}

/// A header field in relaxed canonical form (RFC 6376 §3.4.2), with its CRLF:
/// the name lowercased, the value unfolded, runs of white space one space, none
/// around the colon or at the end.
fn relaxed_header(name: &str, value: &str) -> Vec<u8> {
    let mut out = name.trim().to_ascii_lowercase().into_bytes();
    out.push(b':');
    let unfolded = value.replace("\r\n", "");
    let mut space = false;
    for b in unfolded.trim_matches([' ', '\t']).bytes() {
        if b == b' ' || b == b'\t' {
            space = true;
            continue;
        }
        if space {
            out.push(b' ');
            space = false;
        }
        out.push(b);
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// A body in relaxed canonical form (RFC 6376 §3.4.4): white space runs one space,
/// none at line ends, no empty lines at the end, CRLF after the last line (an empty
/// body stays empty).
fn relaxed_body(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut empty_lines = 0usize;
    let text = body.strip_suffix(b"\r\n").unwrap_or(body);
    if body.is_empty() {
        return out;
    }
    for line in text.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut canon = Vec::with_capacity(line.len());
        let mut space = false;
        for &b in line {
            if b == b' ' || b == b'\t' {
                space = true;
                continue;
            }
            if space {
                canon.push(b' ');
                space = false;
            }
            canon.push(b);
        }
        if canon.is_empty() {
            empty_lines += 1;
            continue;
        }
        for _ in 0..empty_lines {
            out.extend_from_slice(b"\r\n");
        }
        empty_lines = 0;
        out.extend_from_slice(&canon);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// A PKCS #1 RSAPublicKey wrapped as the SubjectPublicKeyInfo DKIM records carry.
fn rsa_spki(pkcs1: &[u8]) -> Vec<u8> {
    // AlgorithmIdentifier { rsaEncryption, NULL }
    const ALGORITHM: [u8; 15] = [
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    let mut bits = vec![0x00];
    bits.extend_from_slice(pkcs1);
    let mut inner = ALGORITHM.to_vec();
    inner.extend(der(0x03, &bits));
    der(0x30, &inner)
}

/// One DER element: `tag`, its length, `content`.
fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(content);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_body_drops_trailing_space_and_empty_lines() {
        assert_eq!(
            relaxed_body(b"a  b \t\r\n\r\nc\r\n\r\n\r\n"),
            b"a b\r\n\r\nc\r\n"
        );
        assert_eq!(relaxed_body(b""), b"");
        assert_eq!(relaxed_body(b"\r\n\r\n"), b"");
    }

    #[test]
    fn relaxed_header_unfolds_and_lowercases() {
        assert_eq!(
            relaxed_header("Subject ", " Your  move\r\n\tnow \t"),
            b"subject:Your move now\r\n"
        );
    }

    #[test]
    fn fields_keep_folded_lines_together() {
        let f = fields(b"From: a\r\nSubject: x\r\n y\r\nTo: b\r\n");
        assert_eq!(f.len(), 3);
        assert_eq!(f[1], (&b"Subject"[..], &b" x\r\n y"[..]));
    }

    #[test]
    fn h_lists_an_over_signed_header_once_more_than_it_occurs() {
        let head = b"From: a\r\nTo: b\r\nSubject: x\r\nX-Other: y\r\nIn-Reply-To: <m>\r\n\
                     Subject: again\r\n";
        let (names, canon) = signed_headers(&fields(head));
        let count = |n: &str| names.iter().filter(|x| *x == n).count();
        assert_eq!(count("subject"), 3, "{names:?}");
        assert_eq!(count("from"), 2, "{names:?}");
        assert_eq!(count("to"), 2, "{names:?}");
        // absent: listed once, so one cannot be added
        for absent in [
            "cc",
            "reply-to",
            "date",
            "message-id",
            "content-type",
            "mime-version",
        ] {
            assert_eq!(count(absent), 1, "{absent}: {names:?}");
        }
        // not over-signed: each occurrence only; not signed: never
        assert_eq!(count("in-reply-to"), 1, "{names:?}");
        assert_eq!(count("references"), 0, "{names:?}");
        assert_eq!(count("x-other"), 0, "{names:?}");
        // the extra names add no data: the bottom Subject comes first
        let canon = String::from_utf8_lossy(&canon);
        assert!(
            canon
                .starts_with("from:a\r\nto:b\r\nsubject:again\r\nsubject:x\r\nin-reply-to:<m>\r\n"),
            "{canon}"
        );
    }

    #[test]
    fn bad_names_are_refused() {
        assert!(matches!(
            dns_name("selector", "a b"),
            Err(DkimError::BadName { .. })
        ));
        assert_eq!(
            dns_name("domain", "Example.ORG").ok().as_deref(),
            Some("example.org")
        );
    }
}
