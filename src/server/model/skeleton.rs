//! The look-alike form of a userid ([`skeleton`]) and the role names no new account
//! may take ([`is_role_name`]): two userids with one skeleton read alike in a mail
//! (`aIice` and `alice`, `r0bot5` and `robot5`), and a role name (`postmaster`,
//! `MAILER-DAEMON`, `yinsh`) reads as the server or the mail system speaking.
//! Userids are ASCII (`[A-Za-z0-9_.-]`), so the skeleton needs no Unicode table.

/// The names that read as the server, its operator or the mail system, compared by
/// skeleton (so `P0stmaster` and `no_reply` are among them); see [`is_role_name`].
pub const ROLE_NAMES: &[&str] = &[
    "abuse",
    "admin",
    "administrator",
    "daemon",
    "help",
    "hostmaster",
    "info",
    "listserv",
    "mailer-daemon",
    "majordomo",
    "moderator",
    "nobody",
    "noreply",
    "operator",
    "owner",
    "postmaster",
    "root",
    "security",
    "server",
    "staff",
    "support",
    "sysadmin",
    "system",
    "webmaster",
    "yinsh",
    "yinsh-pbem",
];

/// The start of every robot's name in skeleton form: no new userid's skeleton begins
/// with it (`robot1` .. `robot5` and whatever robots come later).
pub const ROBOT_PREFIX: &str = "robot";

/// The look-alike form of a userid: lower case; `_`, `-` and `.` dropped; the digits
/// that pass for letters replaced (`0` o, `1` l, `2` z, `5` s, `8` b), `i` and `|`
/// read as `l`; then `rn` read as `m`, `vv` as `w`, `cl` as `d`. Two userids with the
/// same skeleton are told apart by no reader in a hurry.
///
/// ```
/// use yinsh_pbem::server::model::skeleton;
/// assert_eq!(skeleton("aIice"), skeleton("alice"));
/// assert_eq!(skeleton("a1ice"), "allce");
/// assert_eq!(skeleton("r0bot5"), skeleton("robot5"));
/// assert_eq!(skeleton("Mailer_Daemon"), "mallerdaemon");
/// assert_ne!(skeleton("alice"), skeleton("alicia"));
/// ```
pub fn skeleton(userid: &str) -> String {
    let letters: String = userid
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' | '|' => 'l',
            '2' => 'z',
            '5' => 's',
            '8' => 'b',
            c => c,
        })
        .collect();
    letters
        .replace("rn", "m")
        .replace("vv", "w")
        .replace("cl", "d")
}

/// Whether `userid` reads as a role of the server or the mail system: its skeleton
/// is a [`ROLE_NAMES`] one's, or begins with the robots' [`ROBOT_PREFIX`].
///
/// ```
/// use yinsh_pbem::server::model::is_role_name;
/// assert!(is_role_name("MAILER-DAEMON") && is_role_name("P0stmaster") && is_role_name("no_reply"));
/// assert!(is_role_name("r0bot5") && is_role_name("Robotics"));
/// assert!(!is_role_name("alice") && !is_role_name("yinshfan"));
/// ```
pub fn is_role_name(userid: &str) -> bool {
    let s = skeleton(userid);
    s.starts_with(ROBOT_PREFIX) || ROLE_NAMES.iter().any(|r| skeleton(r) == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25 finding 10: the look-alikes of the finding share a skeleton.
    #[test]
    fn the_findings_look_alikes_share_a_skeleton() {
        for (a, b) in [
            ("aIice", "alice"),
            ("a1ice", "alice"),
            ("AL1CE", "alice"),
            ("r0bot5", "robot5"),
            ("robotS", "robot5"),
            ("modern", "modem"),
            ("vvalter", "walter"),
            ("clave", "dave"),
            ("b0b_smith", "bob.smith"),
            ("z-2", "zz"),
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a} and {b}");
        }
        for (a, b) in [("alice", "alicia"), ("bob", "rob"), ("ann", "anne")] {
            assert_ne!(skeleton(a), skeleton(b), "{a} and {b}");
        }
    }

    /// Issue 25 finding 10: role names, however spelt, and the robots' prefix.
    #[test]
    fn role_names_are_found_by_skeleton() {
        for name in [
            "MAILER-DAEMON",
            "mailerdaemon",
            "postmaster",
            "P0STMASTER",
            "operator",
            "yinsh",
            "Y1NSH",
            "admin",
            "root",
            "noreply",
            "no-reply",
            "no_reply",
            "robot",
            "robot9",
            "r0bot5",
            "Robot_3",
        ] {
            assert!(is_role_name(name), "{name}");
        }
        for name in [
            "alice",
            "bob",
            "rootbeer",
            "yinshfan",
            "operators",
            "robbie",
        ] {
            assert!(!is_role_name(name), "{name}");
        }
    }
}
