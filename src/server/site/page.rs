//! The frame every page of the web site shares: the document head (with the site's
//! icon, `favicon.svg`), the navigation
//! between the index, standings, history and rules, and the one style sheet
//! (`style.css`, light and dark; a game's board stays in view on a phone while its
//! review and moves scroll, but in play mode, where the play section follows it (beside
//! it on a wide screen); every point and button is a target of at least 32 px
//! at 390 px; a reviewed game's chart sits under its board, and a click anywhere on it
//! steps to the nearest point).
//! Pages link only to files of the site itself.

use std::fmt::Write as _;

use crate::server::text::html::escape;

/// The style sheet of the site, written as `style.css`.
pub(super) const STYLE: &str = "\
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fbfaf7; --line: #8888; --link: #0057a3; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e6e1; --bg: #16181b; --line: #8888; --link: #7ab7ff; }
}
body { margin: 0; padding: 12px 16px; font: 16px/1.45 Helvetica, Arial, sans-serif;
  color: var(--fg); background: var(--bg); }
main { max-width: 980px; }
nav { margin-bottom: 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
nav a { margin-right: 14px; }
a { color: var(--link); }
h1 { font-size: 24px; margin: 4px 0 8px; }
h2 { font-size: 18px; margin: 18px 0 6px; }
pre { font: 13px/1.3 Menlo, Consolas, 'DejaVu Sans Mono', monospace; overflow-x: auto; }
table.list { border-collapse: collapse; }
table.list th, table.list td { text-align: left; padding: 3px 12px 3px 0;
  border-bottom: 1px solid var(--line); }
[hidden] { display: none !important; }
.wide { overflow-x: auto; max-width: 100%; }
.game { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.game img { max-width: 100%; height: auto; display: block; }
.board-box { flex: 0 1 548px; max-width: 100%; }
.side { flex: 1 1 300px; min-width: 0; }
#svgboard { display: block; width: 100%; max-width: 548px; height: auto; background: #cdc6b8; }
#svgboard .pt[role=button] { cursor: pointer; }
#svgboard .pt:focus { outline: none; stroke: #111; stroke-width: 3; fill: rgba(240, 228, 66, 0.45); }
#caption, #score { margin: 4px 0; }
.moves { font: 15px/1.5 Menlo, Consolas, 'DejaVu Sans Mono', monospace; border-collapse: collapse; }
.moves th { text-align: left; font-weight: normal; opacity: 0.7; padding: 0 6px; }
.moves td { padding: 0 6px; }
.moves td a { display: inline-block; min-height: 32px; line-height: 32px; min-width: 32px; }
.moves td.n { text-align: right; opacity: 0.7; }
.moves a.here { font-weight: bold; text-decoration: none; outline: 2px solid var(--link); }
#step button, #play button, a.button { font-size: 16px; min-width: 44px; min-height: 40px; margin: 0 4px 4px 0; }
a.button { display: inline-block; padding: 8px 12px; border: 1px solid var(--link); border-radius: 4px;
  text-decoration: none; font-weight: bold; }
#play { border: 2px solid #0072b2; border-radius: 6px; padding: 4px 12px; margin-bottom: 12px;
  flex: 1 1 300px; min-width: 0; box-sizing: border-box; }
#play h2 { margin: 8px 0 4px; }
#play p { margin: 6px 0; }
.why { font-weight: bold; border-left: 4px solid #d55e00; padding-left: 8px; }
.why:empty { display: none; }
#play-turn { font-size: 18px; }
#play-mail label { display: block; margin: 4px 0; }
#play-mail input { width: 100%; box-sizing: border-box; font: 14px Menlo, Consolas, monospace; }
#play-used { border-left: 4px solid #0072b2; padding: 4px 10px; font-weight: bold; }
#position summary { cursor: pointer; min-height: 32px; line-height: 32px; }
#position ul { margin: 4px 0; padding-left: 20px; }
p.links a { display: inline-block; min-height: 32px; line-height: 32px; margin-right: 8px; }
.status { font-size: 18px; }
.review { flex: 1 1 100%; min-width: 0; max-width: 640px; }
.review figure { margin: 0; }
#review-chart svg { display: block; width: 100%; height: auto; }
#review-chart svg[data-live] { cursor: pointer; }
#review-chart circle.pt:focus { outline: none; stroke: #d55e00; stroke-width: 3; }
#review-chart circle.pt.at { fill: #d55e00; r: 5px; }
#review-chart figcaption { font-size: 14px; margin: 4px 0; }
ol.turning { padding-left: 24px; }
ol.turning a { display: inline-block; min-height: 32px; line-height: 32px; }
ol.turning a.here { font-weight: bold; text-decoration: none; outline: 2px solid var(--link); }
@media (min-width: 900px) {
  .game.reviewed { display: grid; grid-template-columns: minmax(0, 548px) minmax(300px, 1fr);
    grid-template-rows: auto 1fr; }
  .game.reviewed .board-box { grid-column: 1; grid-row: 1; }
  .game.reviewed .review { grid-column: 1; grid-row: 2; align-self: start; }
  .game.reviewed .side { grid-column: 2; grid-row: 1 / span 2; }
  .game.playing { display: grid; grid-template-columns: minmax(0, 548px) minmax(300px, 1fr);
    grid-template-rows: auto 1fr; }
  .game.playing .board-box { grid-column: 1; grid-row: 1 / span 2; }
  .game.playing #play { grid-column: 2; grid-row: 1; }
  .game.playing .side { grid-column: 2; grid-row: 2; }
}
@media (max-width: 700px) {
  body { padding: 8px; }
  .board-box { position: sticky; top: 0; z-index: 1; background: var(--bg); }
  .game.playing { gap: 8px; }
  .game.playing .board-box { position: static; }
  table.list th, table.list td { padding: 3px 6px 3px 0; font-size: 14px; }
}
";

/// A whole page: `title` (text, escaped here) and `body` (HTML); `root` is the way
/// up to the site's top folder (`""` or `"../../"`).
pub(super) fn page(title: &str, root: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <title>{title}</title><link rel=\"icon\" href=\"{root}favicon.svg\" type=\"image/svg+xml\">\
         <link rel=\"stylesheet\" href=\"{root}style.css\"></head>\n\
         <body><main>\n<nav><a href=\"{root}index.html\">Games</a>\
         <a href=\"{root}standings.html\">Standings</a>\
         <a href=\"{root}history.html\">History</a>\
         <a href=\"{root}tournaments.html\">Tournaments</a>\
         <a href=\"{root}rules.html\">Rules</a></nav>\n{body}</main></body></html>\n",
        title = escape(title),
    );
    out
}
