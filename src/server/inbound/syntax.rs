//! The answer to a line that is not a command (a Subject, a line of `multiple`, the
//! first line of a reply written as a misspelt command): the parser's error, with the
//! line's passwords masked, and a version repeating no word of it for an address
//! nobody confirmed.

use crate::server::command::redact;
use crate::server::command::{CommandError, command_list};
use crate::server::exec::Request;
use crate::server::outgoing::Foreign;
use crate::server::outgoing::Reply;
use crate::server::text::{notices, reply, subjects};

/// The error mail for a line that is no command, to the sender: what is wrong, the
/// line (`line`, passwords masked) when it is one of several, and where the syntax is
/// told, over the original message `quoted`; an address nobody confirmed gets it
/// without a word of the line.
pub(super) fn error_mail(
    req: &Request<'_>,
    e: &CommandError,
    line: Option<&str>,
    quoted: &str,
) -> Option<Reply> {
    let to = req.reply_to.cloned()?;
    let mut message = e.to_string();
    if let CommandError::Unknown(_) = e {
        message = format!("{message} {}", commands());
    }
    // A line too long to be read is not repeated either.
    if let Some(l) = line.filter(|_| !matches!(e, CommandError::TooLong { .. })) {
        message = notices::in_the_line(&redact::loggable(l), &message);
    }
    const HELP: &str = "\nSend \"help\" or \"yinsh help\" for the commands and their syntax.";
    message.push_str(HELP);
    let unquoted = format!("{}{HELP}", without_words(e));
    Some(Reply {
        to: vec![to],
        subject: subjects::error(),
        body: reply::error_body(&message, None, quoted),
        foreign: Foreign::Part(reply::error_body(&unquoted, None, "")),
        ..Reply::default()
    })
}

/// The list of commands, from the command table.
fn commands() -> String {
    format!(
        "Commands are: {} (send \"help\" for their syntax).",
        command_list()
    )
}

/// What is wrong with a line, in words that repeat none of it: the text an address
/// nobody confirmed is sent. The line may be a stranger's, and the words an error
/// quotes (an unknown command word, a word that is no userid) could carry any text,
/// a link included, of any length.
fn without_words(e: &CommandError) -> String {
    match e {
        CommandError::Empty | CommandError::TooLong { .. } => e.to_string(),
        CommandError::Unknown(_) | CommandError::OtherGame(_) => {
            format!("The line does not start with a command. {}", commands())
        }
        CommandError::DidYouMean { .. } | CommandError::WithoutYinsh { .. } => {
            match e.meant_command() {
                Some((words, usage)) => format!(
                    "The command word is misspelt or \"yinsh\" is missing before it. Did you mean {words}? Its syntax is:\n    {usage}"
                ),
                None => {
                    "The command word is misspelt or \"yinsh\" is missing before it.".to_string()
                }
            }
        }
        CommandError::UnknownYinsh(_) => {
            "The word after \"yinsh\" is not a yinsh command.".to_string()
        }
        CommandError::Syntax { usage, .. } => {
            format!("The line does not fit the command's syntax: {usage}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::command::Command;

    /// Issue 26 item 12: an unknown command word gets every command of the table,
    /// message, vacation and verify included, in both versions of the error.
    #[test]
    fn an_unknown_command_lists_every_command_of_the_table() {
        let e = Command::parse("register bob s3cret").unwrap_err();
        for text in [without_words(&e), commands()] {
            for word in [
                "signup",
                "message",
                "vacation",
                "verify",
                "broadcast",
                "yinsh ...",
            ] {
                assert!(text.contains(word), "{word}: {text}");
            }
            assert!(!text.contains("s3cret") && !text.contains("bob"), "{text}");
        }
    }

    /// Issue 26 item 12: an error mail without a quote (to an address nobody
    /// confirmed) has no "Original message follows:" heading followed by nothing.
    #[test]
    fn an_error_without_a_quote_has_no_heading_for_it() {
        assert_eq!(reply::error_body("Unknown.", None, ""), "Unknown.\n");
        let body = reply::error_body("Unknown.", None, "> Subject: x\n");
        assert!(
            body.ends_with("\nOriginal message follows:\n\n> Subject: x\n"),
            "{body}"
        );
    }

    /// Issue 26 item 12: a misspelt command word gets the command meant in the
    /// server's words, also for an address nobody confirmed.
    #[test]
    fn a_misspelt_command_gets_the_command_meant_in_the_servers_words() {
        let e = Command::parse("singup bob s3cret").unwrap_err();
        let text = without_words(&e);
        assert!(text.contains("Did you mean signup?"), "{text}");
        assert!(text.contains("signup <userid> <password>"), "{text}");
        assert!(!text.contains("s3cret") && !text.contains("bob"), "{text}");
        let e = Command::parse("move 101 bob s3cret e5").unwrap_err();
        let text = without_words(&e);
        assert!(text.contains("Did you mean yinsh move?"), "{text}");
        assert!(!text.contains("s3cret") && !text.contains("bob"), "{text}");
        let e = Command::parse("yinsh chalenge bob carol").unwrap_err();
        assert!(without_words(&e).contains("Did you mean yinsh challenge?"));
    }
}
