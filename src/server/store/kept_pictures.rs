//! The last board picture drawn for each game, kept in the home as a cache (outside
//! the journal and the `Store`'s records: only the home's path is needed), so that
//! showing the same position again costs a file read instead of a drawing (issue 29:
//! a `yinsh show` of a game's current position, a board mail sent again). A move's
//! board mail draws the new position once for all its recipients and keeps it here
//! (`outgoing::build`, under the store's lock); a later mail that shows that picture
//! reads it, and so does the web site's page of the game, made after the mail (read
//! only: it is made outside the store's lock).
//!
//! `<home>/pictures/<slot>.png`: the slot is the board number modulo [`SLOTS`], so
//! the folder holds at most that many files whatever the number of games (about
//! 35 MB); two games of one slot take it from each other, which costs a drawing,
//! never a wrong picture: each file names its picture (`Picture::key`: the position,
//! its marks, the program's and the drawing's versions), and a picture is taken only
//! for an equal name. A file is written whole or not at all (a temp file renamed),
//! and not made durable: after a crash it is drawn again.
//!
//! The file: the line `yinsh-pbem kept picture`, the name's length (u32, little end
//! first), the name, then the PNG.

use std::io;
use std::path::{Path, PathBuf};

use crate::durable::{self, Existing, Pending, Readers};
use crate::server::model::BoardId;

/// Files the folder holds at most.
pub const SLOTS: u32 = 1024;

/// A kept file's first bytes.
const MAGIC: &[u8] = b"yinsh-pbem kept picture\n";

/// The largest kept file read (a picture is about 35 kB).
const MAX_FILE: u64 = 1 << 20;

/// The PNG signature a kept picture starts with.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Why a kept picture could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum KeptError {
    /// The file could not be read.
    #[error("cannot read the kept picture {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a kept picture.
    #[error("the kept picture {} is broken: {what}", path.display())]
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: &'static str,
    },
    /// The picture could not be kept.
    #[error("cannot keep the picture in {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// The kept pictures of a home.
#[derive(Debug, Clone)]
pub struct KeptPictures {
    dir: PathBuf,
}

impl KeptPictures {
    /// The kept pictures of the home `home` (`<home>/pictures/`).
    pub fn new(home: &Path) -> KeptPictures {
        KeptPictures {
            dir: home.join("pictures"),
        }
    }

    /// The file of `board`'s slot.
    fn path(&self, board: BoardId) -> PathBuf {
        self.dir.join(format!("{}.png", u32::from(board) % SLOTS))
    }

    /// The PNG kept for `board` under the name `key`; `None` when none is kept, or
    /// another picture is (a later position, another game of the slot).
    pub fn get(&self, board: BoardId, key: &str) -> Result<Option<Vec<u8>>, KeptError> {
        let path = self.path(board);
        let read = |source| KeptError::Read {
            path: path.clone(),
            source,
        };
        let len = match std::fs::metadata(&path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(read(e)),
        };
        let broken = |what| KeptError::Broken {
            path: path.clone(),
            what,
        };
        if len > MAX_FILE {
            return Err(broken("larger than a picture can be"));
        }
        let bytes = std::fs::read(&path).map_err(read)?;
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| broken("it does not start as one"))?;
        let (len, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| broken("it ends in its name"))?;
        let (name, png) = rest
            .split_at_checked(u32::from_le_bytes(*len) as usize)
            .ok_or_else(|| broken("it ends in its name"))?;
        if !png.starts_with(PNG_SIGNATURE) {
            return Err(broken("no PNG after its name"));
        }
        Ok((name == key.as_bytes()).then(|| png.to_vec()))
    }

    /// Keep `png`, the picture named `key`, for `board` (in place of what its slot
    /// held).
    pub fn put(&self, board: BoardId, key: &str, png: &[u8]) -> Result<(), KeptError> {
        let path = self.path(board);
        let write = |source| KeptError::Write {
            path: path.clone(),
            source,
        };
        durable::create_dir(&self.dir, Readers::Owner).map_err(write)?;
        let name = key.as_bytes();
        let len =
            u32::try_from(name.len()).map_err(|_| write(io::ErrorKind::InvalidInput.into()))?;
        let mut bytes = Vec::with_capacity(MAGIC.len() + 4 + name.len() + png.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(name);
        bytes.extend_from_slice(png);
        // Not made durable: a kept picture lost in a crash is drawn again.
        durable::write_deferred(&path, &bytes, Existing::Replace, &mut Pending::default())
            .map_err(write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u32) -> BoardId {
        BoardId::from(n)
    }

    /// A PNG's bytes for the tests (only its signature is checked here).
    fn png(tag: u8) -> Vec<u8> {
        let mut bytes = PNG_SIGNATURE.to_vec();
        bytes.extend([tag; 100]);
        bytes
    }

    #[test]
    fn a_kept_picture_is_found_by_its_name_only() {
        let home = tempfile::tempdir().unwrap();
        let kept = KeptPictures::new(home.path());
        assert!(
            kept.get(board(101), "a").unwrap().is_none(),
            "none kept yet"
        );
        kept.put(board(101), "a", &png(1)).unwrap();
        assert_eq!(kept.get(board(101), "a").unwrap(), Some(png(1)));
        assert!(kept.get(board(101), "b").unwrap().is_none(), "another name");
        // A later picture of the board takes its place.
        kept.put(board(101), "b", &png(2)).unwrap();
        assert!(kept.get(board(101), "a").unwrap().is_none());
        assert_eq!(kept.get(board(101), "b").unwrap(), Some(png(2)));
    }

    #[test]
    fn the_folder_holds_at_most_its_slots() {
        let home = tempfile::tempdir().unwrap();
        let kept = KeptPictures::new(home.path());
        for n in 100..100 + 3 * SLOTS {
            kept.put(board(n), &format!("game {n}"), &png(0)).unwrap();
        }
        let files = std::fs::read_dir(home.path().join("pictures"))
            .unwrap()
            .count();
        assert_eq!(files, SLOTS as usize);
        // Two games of one slot: each finds only its own picture.
        let (a, b) = (board(101), board(101 + SLOTS));
        kept.put(a, "game a", &png(1)).unwrap();
        assert!(kept.get(b, "game b").unwrap().is_none());
        assert_eq!(kept.get(a, "game a").unwrap(), Some(png(1)));
    }

    #[test]
    fn a_broken_kept_picture_is_a_named_error() {
        let home = tempfile::tempdir().unwrap();
        let kept = KeptPictures::new(home.path());
        kept.put(board(7), "name", &png(1)).unwrap();
        let path = home.path().join("pictures").join("7.png");
        let whole = std::fs::read(&path).unwrap();
        for (cut, what) in [
            (whole[..10].to_vec(), "does not start"),
            (whole[..MAGIC.len() + 2].to_vec(), "ends in its name"),
            (whole[..MAGIC.len() + 4 + 2].to_vec(), "ends in its name"),
            (whole[..MAGIC.len() + 4 + 4 + 3].to_vec(), "no PNG"),
        ] {
            std::fs::write(&path, &cut).unwrap();
            let e = kept.get(board(7), "name").unwrap_err();
            assert!(matches!(e, KeptError::Broken { .. }), "{e}");
            assert!(e.to_string().contains(what), "{e}");
            assert!(e.to_string().contains("7.png"), "{e}");
        }
        std::fs::write(&path, vec![0u8; MAX_FILE as usize + 1]).unwrap();
        let e = kept.get(board(7), "name").unwrap_err();
        assert!(e.to_string().contains("larger"), "{e}");
        // Written again, it is read again.
        kept.put(board(7), "name", &png(3)).unwrap();
        assert_eq!(kept.get(board(7), "name").unwrap(), Some(png(3)));
    }
}
