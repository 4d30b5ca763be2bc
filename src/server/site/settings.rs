//! The `[site]` section of the configuration: where the web site of the games is
//! written and the address it is published at (`docs/mail-formats.md`), read and
//! checked here, a leaf that `config.rs` and the site both use.

use std::path::PathBuf;

use serde::Deserialize;

use crate::server::model::BoardId;

/// `[site]`: where the web site of the games is written and where it is published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteSettings {
    /// The folder the site is written into.
    pub out: PathBuf,
    /// The address the folder is published at (no `/` at the end), if any: board mails
    /// then link to their game's page.
    pub url: Option<String>,
}

impl SiteSettings {
    /// The public address of board `board`'s page, when the site has a URL.
    ///
    /// ```
    /// use yinsh_pbem::server::site::SiteSettings;
    /// let site = SiteSettings { out: "site".into(), url: Some("https://example.org/yinsh".into()) };
    /// assert_eq!(site.game_url(12.into()).as_deref(), Some("https://example.org/yinsh/games/12/"));
    /// ```
    pub fn game_url(&self, board: BoardId) -> Option<String> {
        self.url.as_ref().map(|u| format!("{u}/games/{board}/"))
    }
}

/// `[site]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// The folder the site is written into.
    pub out: Option<PathBuf>,
    /// The address it is published at.
    pub url: Option<String>,
}

/// `[site]` read (the error is the sentence to show): `out` is needed; `url` must be an http(s) address (kept without a
/// final `/`).
pub(in crate::server) fn site_settings(
    site: Option<SiteConfig>,
) -> Result<Option<SiteSettings>, String> {
    let Some(site) = site else {
        return Ok(None);
    };
    let Some(out) = site.out else {
        return Err(
            "[site] needs out = \"/path/of/the/site\" (the folder the pages are written to)".into(),
        );
    };
    let url = match site.url {
        None => None,
        Some(u) => {
            let u = u.trim().trim_end_matches('/').to_string();
            let web = u.starts_with("https://") || u.starts_with("http://");
            if !web || u.contains(|c: char| c.is_whitespace() || c.is_control() || c == '"') {
                return Err(format!(
                    "[site] url = \"{u}\": write the address the folder is published at, \
                     e.g. \"https://example.org/yinsh\""
                ));
            }
            Some(u)
        }
    };
    Ok(Some(SiteSettings { out, url }))
}
