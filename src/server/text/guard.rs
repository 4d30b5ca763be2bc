//! The guard of `text/`'s promise (issue 44 item 7): no string literal that reads
//! as a sentence stands in `src/server/exec/` or `src/server/run/` outside tests, the
//! refusals' `Display` modules (`exec/error/`, `exec/plain.rs`: an error's text is its
//! type's, house style §3) and the files [`FILES`] lists with why. A literal reads
//! as a sentence when, its escapes undone and each `{...}` placeholder read as a
//! word without letters, it has three words with letters or more, or a space and a
//! capital letter to start or a `.`, `:`, `?` or `!` to end. What looks so and is no prose (a stored value, a log key) is listed in
//! [`LITERALS`] with why. Each entry must still be needed: a file listed holds such
//! a literal, a literal listed is found.

use std::path::{Path, PathBuf};

/// Files (from `src/server/`, a folder ending in `/`) that may hold sentences, and why.
const FILES: &[(&str, &str)] = &[
    (
        "exec/error/",
        "the refusals: each text is its type's Display, beside the facts it carries",
    ),
    (
        "exec/plain.rs",
        "the refusals' other Display, for an address nobody confirmed",
    ),
    (
        "run/backup.rs",
        "its errors' Display (house style §3: an error's text is its type's, beside its facts) and the file actions they name; it writes no log line",
    ),
    (
        "run/dry_run.rs",
        "its errors' Display (house style §3) and the file actions they name, and the dry run's own report of a reply it cannot read back; it writes no log line",
    ),
];

/// Literals (as written in the source) that look like sentences but are no prose.
const LITERALS: &[(&str, &str)] = &[
    (
        "(robot: no password)",
        "exec/robots.rs: the stored password hash of a robot, never shown, matched by no password",
    ),
    (
        "the store locked",
        "run/txn.rs: a debug assertion's message, read by a developer whose test broke it",
    ),
];

/// A string literal of a source file: its line and its text as written (escapes
/// not undone).
#[derive(Debug, PartialEq, Eq)]
struct Literal {
    line: usize,
    text: String,
}

/// A source file read for the guard: its literals outside test code, and the files
/// of the modules it declares for tests only (`#[cfg(test)] mod name;`).
#[derive(Debug, Default)]
struct Scanned {
    literals: Vec<Literal>,
    test_modules: Vec<String>,
}

/// The literals of `src` outside `#[cfg(test)]` items, comments and char literals.
/// `code` is `src` with every literal and comment blanked, for finding the items.
fn scan(src: &str) -> Scanned {
    let chars: Vec<char> = src.chars().collect();
    let mut code: Vec<char> = Vec::with_capacity(chars.len());
    let mut found: Vec<(usize, Literal)> = Vec::new();
    let (mut i, mut line) = (0, 1);
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                code.push(' ');
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                line += usize::from(chars[i] == '\n');
                code.push(blank(chars[i]));
                i += 1;
            }
            code.extend([' ', ' ']);
            i += 2;
            continue;
        }
        // A raw string: r"..", r#".."#, br"..".
        let raw_at = if c == 'b' && next == Some('r') {
            i + 1
        } else {
            i
        };
        if !word_before && chars[raw_at] == 'r' {
            let hashes = chars[raw_at + 1..]
                .iter()
                .take_while(|&&h| h == '#')
                .count();
            if chars.get(raw_at + 1 + hashes) == Some(&'"') {
                let start = raw_at + 2 + hashes;
                let mut end = start;
                while !(chars[end] == '"'
                    && chars[end + 1..].iter().take(hashes).all(|&h| h == '#'))
                {
                    end += 1;
                }
                let text: String = chars[start..end].iter().collect();
                found.push((code.len(), Literal { line, text }));
                for &ch in &chars[i..end + 1 + hashes] {
                    line += usize::from(ch == '\n');
                    code.push(blank(ch));
                }
                i = end + 1 + hashes;
                continue;
            }
        }
        if c == '"' {
            let mut end = i + 1;
            while chars[end] != '"' {
                end += if chars[end] == '\\' { 2 } else { 1 };
            }
            let text: String = chars[i + 1..end].iter().collect();
            found.push((code.len(), Literal { line, text }));
            for &ch in &chars[i..=end] {
                line += usize::from(ch == '\n');
                code.push(blank(ch));
            }
            i = end + 1;
            continue;
        }
        if c == '\'' {
            // A char literal ('"', '\n', '\''), else a lifetime or a label.
            let end = match next {
                Some('\\') => (i + 3..chars.len()).find(|&k| chars[k] == '\''),
                Some(_) if chars.get(i + 2) == Some(&'\'') => Some(i + 2),
                _ => None,
            };
            if let Some(end) = end {
                code.extend(std::iter::repeat_n(' ', end + 1 - i));
                i = end + 1;
                continue;
            }
        }
        line += usize::from(c == '\n');
        code.push(c);
        i += 1;
    }
    let mut out = Scanned::default();
    let mut skipped: Vec<(usize, usize)> = Vec::new();
    let attr: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut k = 0;
    while k + attr.len() <= code.len() {
        if code[k..k + attr.len()] != attr[..] {
            k += 1;
            continue;
        }
        let item = k + attr.len();
        let Some(stop) = (item..code.len()).find(|&j| code[j] == '{' || code[j] == ';') else {
            break;
        };
        if code[stop] == ';' {
            let words: String = code[item..stop].iter().collect();
            if let ["mod", name] = words.split_whitespace().collect::<Vec<_>>()[..] {
                out.test_modules.push(name.to_string());
            }
            k = stop;
            continue;
        }
        let mut depth = 0;
        let mut end = stop;
        for (j, &ch) in code.iter().enumerate().skip(stop) {
            depth += i32::from(ch == '{') - i32::from(ch == '}');
            if depth == 0 {
                end = j;
                break;
            }
        }
        skipped.push((k, end));
        k = end;
    }
    out.literals = found
        .into_iter()
        .filter(|(at, _)| !skipped.iter().any(|&(a, b)| a <= *at && *at <= b))
        .map(|(_, literal)| literal)
        .collect();
    out
}

/// Whether a literal, as written, reads as a sentence (see the module text).
fn looks_like_sentence(text: &str) -> bool {
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let escaped = chars.next();
                if escaped == Some('\n') {
                    while chars.next_if(|c| c.is_whitespace()).is_some() {}
                }
                if matches!(escaped, Some('"' | '\'' | '\\')) {
                    plain.extend(escaped);
                } else {
                    plain.push(' ');
                }
            }
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                plain.push('{');
            }
            '{' => {
                // A placeholder stands for a word of no letters.
                if depth == 0 {
                    plain.push('#');
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
    }
    let words = plain
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .count();
    let trimmed = plain.trim();
    let mut start = trimmed.chars();
    let capital = start.next().is_some_and(|c| c.is_ascii_uppercase())
        && start.next().is_some_and(|c| c.is_ascii_lowercase());
    let stop = trimmed.ends_with(['.', ':', '?', '!']);
    words >= 3 || (trimmed.contains(' ') && (capital || stop))
}

/// Every `.rs` file under `dir`, and the files of test-only modules to leave out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The folder holding the files of the modules `file` declares.
fn children_of(file: &Path) -> PathBuf {
    let dir = file.parent().expect("a folder");
    match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod") => dir.to_path_buf(),
        Some(stem) => dir.join(stem),
        None => dir.to_path_buf(),
    }
}

/// The sentences of `exec/` and `run/` outside what is allowed, as `path:line: text`,
/// and the allowed files that hold none.
fn offenders(server: &Path) -> (Vec<String>, Vec<&'static str>) {
    let mut files = Vec::new();
    for part in ["exec", "run"] {
        sources(&server.join(part), &mut files);
    }
    let mut test_only: Vec<PathBuf> = Vec::new();
    let mut scanned = Vec::new();
    for file in &files {
        let src = std::fs::read_to_string(file).expect("a source file");
        let s = scan(&src);
        for name in &s.test_modules {
            let dir = children_of(file);
            test_only.push(dir.join(format!("{name}.rs")));
            test_only.push(dir.join(name));
        }
        scanned.push((file, s));
    }
    let mut out = Vec::new();
    let mut with_prose: Vec<String> = Vec::new();
    for (file, s) in scanned {
        if test_only.iter().any(|t| file.starts_with(t)) {
            continue;
        }
        let name = file
            .strip_prefix(server)
            .expect("under src/server")
            .to_string_lossy()
            .replace('\\', "/");
        let prose: Vec<&Literal> = s
            .literals
            .iter()
            .filter(|l| looks_like_sentence(&l.text))
            .filter(|l| !LITERALS.iter().any(|(allowed, _)| *allowed == l.text))
            .collect();
        if !prose.is_empty() {
            with_prose.push(name.clone());
        }
        if FILES.iter().any(|(allowed, _)| name.starts_with(allowed)) {
            continue;
        }
        out.extend(
            prose
                .iter()
                .map(|l| format!("src/server/{name}:{}: {:?}", l.line, l.text)),
        );
    }
    let stale = FILES
        .iter()
        .map(|(allowed, _)| *allowed)
        .filter(|allowed| !with_prose.iter().any(|name| name.starts_with(allowed)))
        .collect();
    (out, stale)
}

#[test]
fn exec_and_run_write_no_sentence_text_does() {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server");
    let (found, stale) = offenders(&server);
    assert!(
        found.is_empty(),
        "sentences a person reads stand in exec/ or run/; write them in src/server/text/ \
         and call them with the facts (or, for no prose, list the literal in \
         text/guard.rs LITERALS with why):\n{}",
        found.join("\n")
    );
    assert!(
        stale.is_empty(),
        "text/guard.rs FILES lists files that hold no sentence any more: drop {stale:?}"
    );
}

#[test]
fn every_literal_allowed_is_still_written_somewhere() {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server");
    let mut files = Vec::new();
    sources(&server.join("exec"), &mut files);
    sources(&server.join("run"), &mut files);
    let all: Vec<Literal> = files
        .iter()
        .flat_map(|f| scan(&std::fs::read_to_string(f).expect("a source file")).literals)
        .collect();
    for (allowed, why) in LITERALS {
        assert!(
            all.iter().any(|l| l.text == *allowed),
            "text/guard.rs LITERALS lists {allowed:?} ({why}), found nowhere: drop it"
        );
    }
}

#[test]
fn sentences_are_told_from_keys_and_words() {
    for sentence in [
        "Your move {text} is queued.",
        "The game has ended",
        "{who} writes:",
        "removed the account {userid}: no address confirmed",
        "yinsh games page {}",
        "Line one\\n\\\n         line two",
    ] {
        assert!(looks_like_sentence(sentence), "{sentence:?}");
    }
    for key in [
        "challenges",
        "sender {s}",
        "{:>6}  {:<12}",
        "\\n",
        "{}\\n{answer}",
        "text-only",
        "",
    ] {
        assert!(!looks_like_sentence(key), "{key:?}");
    }
}

#[test]
fn test_code_comments_and_chars_are_not_read() {
    let src = r##"
// "A comment is no literal at all."
const QUOTE: char = '"';
fn f<'a>(x: &'a str) -> &'a str { let _ = r#"raw "one" here"#; "kept" }
/* "Nor is a block comment." */
#[cfg(test)]
mod tests {
    fn g() { let _ = "A test may say anything."; let _ = '}'; }
}
#[cfg(test)]
mod more;
fn h() -> &'static str { "after" }
"##;
    let s = scan(src);
    let texts: Vec<&str> = s.literals.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["raw \"one\" here", "kept", "after"]);
    assert_eq!(s.literals[1].line, 4);
    assert_eq!(s.literals[2].line, 12);
    assert_eq!(s.test_modules, ["more"]);
}
