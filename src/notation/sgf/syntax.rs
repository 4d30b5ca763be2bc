//! The SGF syntax alone (FF[4] §3): a game tree of nodes, each a list of properties
//! `ID[value][value]...`, values with `\` escapes. Boardspace writes one main line, so
//! variations are read in order as if they were one line. Meaning is `read.rs`'s.

use super::SgfError;

/// One property: its identifier and its values (unescaped).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Property {
    /// `P0`, `GN`, ...
    pub(crate) id: String,
    /// The values, `\` escapes removed.
    pub(crate) values: Vec<String>,
}

/// The nodes of `text` in order, each a list of properties.
pub(crate) fn nodes(text: &str) -> Result<Vec<Vec<Property>>, SgfError> {
    let bytes = text.as_bytes();
    let mut nodes: Vec<Vec<Property>> = Vec::new();
    let mut k = 0;
    let mut seen_open = false;
    while k < bytes.len() {
        let c = bytes[k];
        match c {
            b'(' => {
                seen_open = true;
                k += 1;
            }
            b')' => k += 1,
            b';' if seen_open => {
                nodes.push(Vec::new());
                k += 1;
            }
            c if c.is_ascii_whitespace() => k += 1,
            c if c.is_ascii_uppercase() && seen_open => {
                let start = k;
                while k < bytes.len() && bytes[k].is_ascii_alphanumeric() {
                    k += 1;
                }
                let id = text[start..k].to_string();
                let mut values = Vec::new();
                loop {
                    while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    if k >= bytes.len() || bytes[k] != b'[' {
                        break;
                    }
                    let (value, next) = value(text, k + 1)?;
                    values.push(value);
                    k = next;
                }
                if values.is_empty() {
                    return Err(SgfError::Syntax {
                        offset: k,
                        expected: "`[` and the value of the property",
                    });
                }
                match nodes.last_mut() {
                    Some(node) => node.push(Property { id, values }),
                    None => {
                        return Err(SgfError::Syntax {
                            offset: start,
                            expected: "`;` before the first property",
                        });
                    }
                }
            }
            _ => {
                return Err(SgfError::Syntax {
                    offset: k,
                    expected: if seen_open {
                        "`;`, a property or `)`"
                    } else {
                        "`(` starting the game"
                    },
                });
            }
        }
    }
    if !seen_open {
        return Err(SgfError::Syntax {
            offset: 0,
            expected: "`(` starting the game",
        });
    }
    Ok(nodes)
}

/// The value starting at byte `k` (just after `[`): its text and the offset after `]`.
fn value(text: &str, k: usize) -> Result<(String, usize), SgfError> {
    let mut out = String::new();
    let mut chars = text[k..].char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ']' => return Ok((out, k + at + 1)),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    // A backslash before a line break joins the lines (FF[4] soft break).
                    if escaped != '\n' {
                        out.push(escaped);
                    }
                }
            }
            c => out.push(c),
        }
    }
    Err(SgfError::Syntax {
        offset: text.len(),
        expected: "`]` closing the value",
    })
}

/// `value` escaped for writing between `[` and `]`.
pub(crate) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_values_and_escapes() {
        let n = nodes(" (;\nGM[24] VV[2]\nGN[a\\]b]\n; P0[1 place wr  F 6]TM[5]\n;\n)\n").unwrap();
        assert_eq!(n.len(), 3);
        assert_eq!(n[0].len(), 3);
        assert_eq!(n[0][2].values, vec!["a]b"]);
        assert_eq!(n[1][0].id, "P0");
        assert_eq!(n[1][0].values, vec!["1 place wr  F 6"]);
        assert_eq!(n[1][1].id, "TM");
        assert!(n[2].is_empty());
        assert_eq!(escape("a]b\\"), "a\\]b\\\\");
        for bad in ["", "GM[24]", "(;GM[24", "(;GM 24", "(GM[1])", "(;gm[1])"] {
            assert!(
                matches!(nodes(bad), Err(SgfError::Syntax { .. })),
                "{bad:?}"
            );
        }
    }
}
