//! `yinsh-pbem site [--out DIR]`: writes the static web site of the games
//! (`server::site::build`) into DIR, or the `[site] out` of the configuration. Exit 0
//! when it is written, 75 (saying why on stderr) when it cannot be.

use std::path::Path;
use std::process::ExitCode;

use super::serve::EX_TEMPFAIL;
use crate::server::config::{self, Overrides};
use crate::server::site;
use crate::server::store::Store;

/// `yinsh-pbem site`: the whole site from the store of the configured home.
pub fn site(opts: Overrides, out: Option<&Path>) -> ExitCode {
    let settings = match config::resolve(&opts) {
        Ok(r) => r.settings,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(EX_TEMPFAIL);
        }
    };
    let Some(out) = out
        .map(Path::to_path_buf)
        .or_else(|| settings.site.as_ref().map(|s| s.out.clone()))
    else {
        eprintln!(
            "no folder to write the site into: give --out DIR, or set [site] out = \"DIR\" \
             in the config file"
        );
        return ExitCode::from(EX_TEMPFAIL);
    };
    let result = Store::open(&settings.home)
        .map_err(site::SiteError::from)
        .and_then(|store| {
            let target = site::Target {
                out: &out,
                address: &settings.address(),
            };
            site::build(&store, target, settings.now())
        });
    match result {
        Ok(w) => {
            outln!(
                "wrote the site into {}: {} games, {} files changed",
                out.display(),
                w.games,
                w.files
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("the site was not written: {e}");
            ExitCode::from(EX_TEMPFAIL)
        }
    }
}
