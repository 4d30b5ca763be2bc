//! `yinsh-pbem status [--prometheus [FILE]]`: the operator's view of the server
//! (`server::run::status`), as text, or in the Prometheus text format on standard
//! output or into FILE (written whole, then renamed into place, readable by all: a
//! node_exporter textfile collector never reads half a file). Exit 0, or 75 when the
//! store or the file cannot be read or written.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::serve::EX_TEMPFAIL;
use crate::server::config::{self, Overrides};
use crate::server::read::status::status as take_status;

/// Where `status` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusOutput {
    /// Text for a person, on standard output.
    Text,
    /// The Prometheus text format on standard output.
    PrometheusStdout,
    /// The Prometheus text format into this file.
    PrometheusFile(PathBuf),
}

/// `yinsh-pbem status`.
pub fn status(opts: Overrides, output: StatusOutput) -> ExitCode {
    let settings = match config::resolve(&opts) {
        Ok(r) => r.settings,
        Err(e) => {
            eprintln!("configuration error: {e}");
            return ExitCode::from(EX_TEMPFAIL);
        }
    };
    let figures = match take_status(&settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot read the store: {e}");
            return ExitCode::from(EX_TEMPFAIL);
        }
    };
    let written = match &output {
        StatusOutput::Text => std::io::stdout().write_all(figures.text().as_bytes()),
        StatusOutput::PrometheusStdout => {
            std::io::stdout().write_all(figures.prometheus().as_bytes())
        }
        StatusOutput::PrometheusFile(path) => write_whole(path, figures.prometheus().as_bytes()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write the status: {e}");
            ExitCode::from(EX_TEMPFAIL)
        }
    }
}

/// Writes `bytes` to a temp file beside `path` (mode 0644), then renames it to `path`.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let name = path
        .file_name()
        .map_or("status".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o644))?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
