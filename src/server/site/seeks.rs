//! The "Open seeks" section of the site's index (issue 49): a table, with its
//! caption and column headers for a screen reader, of every open seek (as `yinsh
//! seeks` lists them: number, player, rating, normal or blitz, rated or not, range,
//! robot fallback, expiry), and how to post or take one by mail.

use std::fmt::Write as _;

use crate::server::exec::seeks::open_seeks;
use crate::server::store::{SeekColour, Store};
use crate::server::text::dates::format_date;
use crate::server::text::html::escape;
use crate::server::text::seeks::{kind, range, rated, robot};

use super::SiteError;

/// The section's HTML.
pub(super) fn section(store: &Store) -> Result<String, SiteError> {
    let open = open_seeks(store)?;
    let mut out = String::from(
        "<h2 id=\"seeks\">Open seeks</h2>\n<p>Players looking for a game. Take one by mail: \
         <code>yinsh take &lt;seekno&gt; &lt;userid&gt; &lt;password&gt;</code>; post your \
         own: <code>yinsh seek &lt;userid&gt; &lt;password&gt; [-blitz] [-unrated] \
         [-rating=&lt;min&gt;-&lt;max&gt;] [-robot=&lt;n&gt;]</code>.</p>\n",
    );
    if open.is_empty() {
        out.push_str("<p>No seek is open.</p>\n");
        return Ok(out);
    }
    out.push_str(
        "<div class=\"wide\"><table class=\"list\"><caption>Open seeks, oldest first</caption>\n<tr>\
         <th scope=\"col\">Seek</th><th scope=\"col\">Player</th><th scope=\"col\">Rating</th>\
         <th scope=\"col\">Kind</th><th scope=\"col\">Rated</th><th scope=\"col\">Range</th>\
         <th scope=\"col\">Robot</th><th scope=\"col\">Expires</th></tr>\n",
    );
    for (seek, rating) in &open {
        let colour = match seek.wish.colour {
            SeekColour::Any => "",
            SeekColour::White => " (plays White)",
            SeekColour::Black => " (plays Black)",
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}{colour}</td><td>{rating}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            seek.id,
            escape(seek.owner.as_str()),
            kind(seek.wish.variant),
            rated(&seek.wish),
            range(&seek.wish),
            robot(&seek.wish),
            format_date(seek.expires),
        );
    }
    out.push_str("</table></div>\n");
    Ok(out)
}
