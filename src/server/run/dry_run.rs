//! `deliver --dry-run`: what a mail would be answered and what it would change in the
//! store, with nothing written to the home, its spool or outbox, the web site or the
//! mail system. The home is copied into a scratch folder made new, with a random
//! name, in the temp folder (under the store's lock when a store is there, so the
//! copy is one moment of it; the lock file is the only file opened for writing, and
//! it exists after any run); the mail is delivered to the copy with its replies
//! written to a scratch outbox and no site; the copy is compared with what it was,
//! and the scratch folder removed.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::mail::{Transport, parse_inbound};
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::report::Report;

/// Why a dry run failed.
#[derive(Debug, thiserror::Error)]
pub enum DryRunError {
    /// The scratch copy could not be made or read.
    #[error("dry run: cannot {action} {}: {source}", path.display())]
    Scratch {
        /// What was being done.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The store could not be locked, or the mail's run in the copy failed.
    #[error(transparent)]
    Run(#[from] InternalError),
}

/// A file of the store the mail would change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Made, at this path inside the home.
    Added(PathBuf),
    /// Written with other bytes.
    Changed(PathBuf),
    /// Removed.
    Removed(PathBuf),
}

/// A reply the mail would be answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WouldSend {
    /// Its To header as built.
    pub to: String,
    /// Its Subject.
    pub subject: String,
    /// Its text.
    pub body: String,
}

/// What a dry run found.
#[derive(Debug, Clone, Default)]
pub struct DryRun {
    /// What the run in the copy did (its log lines).
    pub report: Report,
    /// The replies it wrote, in their files' order.
    pub replies: Vec<WouldSend>,
    /// The files of the store it changed (the log among them), sorted.
    pub changes: Vec<Change>,
}

/// Delivers `raw` (of `total_size` bytes) to a scratch copy of the home of
/// `settings` and says what it would do.
pub fn dry_run(
    raw: &[u8],
    total_size: usize,
    envelope_sender: Option<&str>,
    settings: &Settings,
) -> Result<DryRun, DryRunError> {
    // A name nobody can guess, made new (never one that was there: mode 0700).
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).map_err(|e| DryRunError::Scratch {
        action: "name",
        path: std::env::temp_dir(),
        source: io::Error::other(e),
    })?;
    let suffix = hex::encode(random);
    let scratch = std::env::temp_dir().join(format!("yinsh-pbem-dry-run.{suffix}"));
    make_dir(&scratch)?;
    let result = in_scratch(&scratch, raw, total_size, envelope_sender, settings);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn in_scratch(
    scratch: &Path,
    raw: &[u8],
    total_size: usize,
    envelope_sender: Option<&str>,
    settings: &Settings,
) -> Result<DryRun, DryRunError> {
    let home = scratch.join("home");
    let outbox = scratch.join("outbox");
    for dir in [&home, &outbox] {
        make_dir(dir)?;
    }
    if settings.home.join("reply-key").is_file() {
        let store = Store::open(&settings.home).map_err(InternalError::from)?;
        let _lock = store
            .lock_within(settings.lock_wait)
            .map_err(InternalError::from)?;
        copy_tree(&settings.home, &home)?;
    }
    let before = digests(&home)?;
    let mut copy = settings.clone();
    copy.home = home.clone();
    copy.transport = Transport::Outbox(outbox.clone());
    copy.site = None;
    copy.now = Some(settings.now());
    let report = super::deliver::deliver(raw, total_size, envelope_sender, &copy)?;
    let after = digests(&home)?;
    let mut changes: Vec<Change> = after
        .iter()
        .filter_map(|(path, digest)| match before.get(path) {
            None => Some(Change::Added(path.clone())),
            Some(old) if old != digest => Some(Change::Changed(path.clone())),
            Some(_) => None,
        })
        .chain(
            before
                .keys()
                .filter(|p| !after.contains_key(*p))
                .map(|p| Change::Removed(p.clone())),
        )
        .collect();
    changes.sort_by(|a, b| path_of(a).cmp(path_of(b)));
    let mut replies = Vec::new();
    for path in digests(&outbox)?.keys() {
        let file = outbox.join(path);
        let bytes = std::fs::read(&file).map_err(scratch_error("read", &file))?;
        replies.push(would_send(&bytes));
    }
    Ok(DryRun {
        report,
        replies,
        changes,
    })
}

fn path_of(c: &Change) -> &Path {
    match c {
        Change::Added(p) | Change::Changed(p) | Change::Removed(p) => p,
    }
}

/// The To, Subject and text of a built reply.
fn would_send(bytes: &[u8]) -> WouldSend {
    let to = String::from_utf8_lossy(bytes)
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix("To: ").map(str::to_string))
        .unwrap_or_default();
    match parse_inbound(bytes) {
        Ok(mail) => WouldSend {
            to,
            subject: mail.subject,
            body: mail.body,
        },
        Err(e) => WouldSend {
            to,
            subject: String::new(),
            body: format!("(the reply cannot be read back: {e})"),
        },
    }
}

fn scratch_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> DryRunError {
    let path = path.to_path_buf();
    move |source| DryRunError::Scratch {
        action,
        path,
        source,
    }
}

fn make_dir(dir: &Path) -> Result<(), DryRunError> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(dir)
        .map_err(scratch_error("create", dir))
}

/// Copies the files and folders of `from` into `to` (modes kept), but the lock files
/// and the temp files of atomic writes.
fn copy_tree(from: &Path, to: &Path) -> Result<(), DryRunError> {
    for entry in std::fs::read_dir(from).map_err(scratch_error("list", from))? {
        let entry = entry.map_err(scratch_error("list", from))?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if matches!(&*text, "lock" | "counters.lock")
            || (text.starts_with('.') && text.ends_with(".tmp"))
        {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry.file_type().map_err(scratch_error("read", &src))?;
        if kind.is_dir() {
            make_dir(&dst)?;
            copy_tree(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(scratch_error("copy", &src))?;
        }
    }
    Ok(())
}

/// Every file under `dir`, by its path inside `dir`, with the SHA-256 of its bytes.
fn digests(dir: &Path) -> Result<BTreeMap<PathBuf, [u8; 32]>, DryRunError> {
    let mut out = BTreeMap::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        let here = dir.join(&rel);
        for entry in std::fs::read_dir(&here).map_err(scratch_error("list", &here))? {
            let entry = entry.map_err(scratch_error("list", &here))?;
            let path = rel.join(entry.file_name());
            let kind = entry.file_type().map_err(scratch_error("read", &here))?;
            if kind.is_dir() {
                todo.push(path);
            } else if kind.is_file() && !is_lock(&path) {
                let file = dir.join(&path);
                let bytes = std::fs::read(&file).map_err(scratch_error("read", &file))?;
                out.insert(path, Sha256::digest(&bytes).into());
            }
        }
    }
    Ok(out)
}

/// `lock` or `counters.lock` at the top of the home.
fn is_lock(path: &Path) -> bool {
    path == Path::new("lock") || path == Path::new("counters.lock")
}
