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
//! for an equal name. A file is written over in place, not made anew (a temp file
//! renamed over the old one would find a new inode and free the old one's blocks,
//! which on ext4 without a journal and with online discard took longer than drawing
//! a tenth of the picture), and not made durable. It names the PNG's length and
//! checksum, so a file torn by a crash or read while it is written (the web site reads
//! outside the lock) is told from a whole one: a broken file, named in the log by
//! the mail that finds it, whose picture is drawn again and written over it.
//!
//! The file: the line `yinsh-pbem kept picture 2`, the name's length (u32, little
//! end first), the name, the PNG's length (u32) and its Adler-32 (u32), the PNG, then
//! whatever a longer picture kept earlier left after it. A file of the first layout
//! (`yinsh-pbem kept picture`, written by a temp file) keeps nothing any more: its
//! picture is drawn again.

use std::io;
use std::path::{Path, PathBuf};

use crate::durable::{self, Readers};
use crate::server::model::BoardId;

/// Files the folder holds at most.
pub const SLOTS: u32 = 1024;

/// A kept file's first bytes.
const MAGIC: &[u8] = b"yinsh-pbem kept picture 2\n";

/// The first bytes of a file of the first layout (no length, no checksum).
const FIRST_MAGIC: &[u8] = b"yinsh-pbem kept picture\n";

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
        let Some(rest) = bytes.strip_prefix(MAGIC) else {
            if bytes.starts_with(FIRST_MAGIC) {
                return Ok(None);
            }
            return Err(broken("it does not start as one"));
        };
        let (len, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| broken("it ends in its name"))?;
        let (name, rest) = rest
            .split_at_checked(u32::from_le_bytes(*len) as usize)
            .ok_or_else(|| broken("it ends in its name"))?;
        if name != key.as_bytes() {
            return Ok(None);
        }
        let (len, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| broken("it ends before its picture"))?;
        let (sum, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| broken("it ends before its picture"))?;
        let png = rest
            .get(..u32::from_le_bytes(*len) as usize)
            .ok_or_else(|| broken("it ends in its picture (torn)"))?;
        if simd_adler32::adler32(&png) != u32::from_le_bytes(*sum) {
            return Err(broken("its picture does not match its checksum (torn)"));
        }
        if !png.starts_with(PNG_SIGNATURE) {
            return Err(broken("no PNG after its name"));
        }
        Ok(Some(png.to_vec()))
    }

    /// Keep `png`, the picture named `key`, for `board` (in place of what its slot
    /// held), written over the slot's file in place.
    pub fn put(&self, board: BoardId, key: &str, png: &[u8]) -> Result<(), KeptError> {
        let path = self.path(board);
        let write = |source| KeptError::Write {
            path: path.clone(),
            source,
        };
        durable::create_dir(&self.dir, Readers::Owner).map_err(write)?;
        let name = key.as_bytes();
        let too_long = || write(io::ErrorKind::InvalidInput.into());
        let name_len = u32::try_from(name.len()).map_err(|_| too_long())?;
        let png_len = u32::try_from(png.len()).map_err(|_| too_long())?;
        let mut bytes = Vec::with_capacity(MAGIC.len() + 12 + name.len() + png.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&name_len.to_le_bytes());
        bytes.extend_from_slice(name);
        bytes.extend_from_slice(&png_len.to_le_bytes());
        bytes.extend_from_slice(&simd_adler32::adler32(&png).to_le_bytes());
        bytes.extend_from_slice(png);
        // Not made durable: a kept picture lost in a crash is drawn again. Not cut to
        // its length either (what a longer picture left after it is not read), unless
        // the file is too large to be read at all.
        let file = durable::overwrite_in_place(&path, &bytes).map_err(write)?;
        if file.metadata().map_err(write)?.len() > MAX_FILE {
            file.set_len(bytes.len() as u64).map_err(write)?;
        }
        Ok(())
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

    #[cfg(unix)]
    #[test]
    fn a_picture_is_written_over_its_slots_file_in_place() {
        use std::os::unix::fs::MetadataExt;
        let home = tempfile::tempdir().unwrap();
        let kept = KeptPictures::new(home.path());
        let long = [png(1), vec![9; 400]].concat();
        kept.put(board(5), "long", &long).unwrap();
        let path = home.path().join("pictures").join("5.png");
        let (inode, size) = {
            let m = std::fs::metadata(&path).unwrap();
            (m.ino(), m.len())
        };
        // A shorter picture: the same file, the longer one's end left behind it and
        // not read.
        kept.put(board(5), "short", &png(2)).unwrap();
        let m = std::fs::metadata(&path).unwrap();
        assert_eq!((m.ino(), m.len()), (inode, size));
        assert_eq!(kept.get(board(5), "short").unwrap(), Some(png(2)));
        assert!(kept.get(board(5), "long").unwrap().is_none());
    }

    #[test]
    fn a_file_of_the_first_layout_keeps_nothing_and_is_written_over() {
        let home = tempfile::tempdir().unwrap();
        let kept = KeptPictures::new(home.path());
        let dir = home.path().join("pictures");
        std::fs::create_dir_all(&dir).unwrap();
        let name = b"name";
        let old = [FIRST_MAGIC, &4u32.to_le_bytes(), name, &png(1)].concat();
        std::fs::write(dir.join("3.png"), old).unwrap();
        assert!(kept.get(board(3), "name").unwrap().is_none());
        kept.put(board(3), "name", &png(2)).unwrap();
        assert_eq!(kept.get(board(3), "name").unwrap(), Some(png(2)));
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
        // The PNG starts after the magic, the name's length, "name", the PNG's
        // length and checksum.
        let at_png = MAGIC.len() + 4 + 4 + 4 + 4;
        let mut flipped = whole.clone();
        flipped[at_png + 50] ^= 1;
        let mut no_png = whole.clone();
        no_png[at_png] ^= 1;
        let sum = simd_adler32::adler32(&&no_png[at_png..]).to_le_bytes();
        no_png[at_png - 4..at_png].copy_from_slice(&sum);
        for (cut, what) in [
            (whole[..10].to_vec(), "does not start"),
            (whole[..MAGIC.len() + 2].to_vec(), "ends in its name"),
            (whole[..MAGIC.len() + 4 + 2].to_vec(), "ends in its name"),
            (
                whole[..MAGIC.len() + 4 + 4 + 3].to_vec(),
                "ends before its picture",
            ),
            (whole[..at_png + 3].to_vec(), "ends in its picture (torn)"),
            (
                whole[..whole.len() - 1].to_vec(),
                "ends in its picture (torn)",
            ),
            (flipped, "does not match its checksum (torn)"),
            (no_png, "no PNG"),
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
