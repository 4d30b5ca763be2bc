//! The answer to a line that is not a command (a Subject, a line of `multiple`, the
//! first line of a reply written as a misspelt command): the parser's error, with the
//! line's passwords masked, and a version repeating no word of it for an address
//! nobody confirmed.

use crate::server::command::CommandError;
use crate::server::command::redact;
use crate::server::exec::Request;
use crate::server::outgoing::Foreign;
use crate::server::outgoing::Reply;
use crate::server::text::{notices, reply, subjects};

/// The error mail for a line that is no command, to the sender: what is wrong, the
/// line (`line`, passwords masked) when it is one of several, and where the syntax is
/// told; an address nobody confirmed gets it without a word of the line.
pub(super) fn error_mail(req: &Request<'_>, e: &CommandError, line: Option<&str>) -> Option<Reply> {
    let to = req.reply_to.clone()?;
    let mut message = e.to_string();
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
        body: reply::error_body(&message, None, req.quoted),
        foreign: Foreign::Part(reply::error_body(&unquoted, None, "")),
        ..Reply::default()
    })
}

/// What is wrong with a line, in words that repeat none of it: the text an address
/// nobody confirmed is sent. The line may be a stranger's, and the words an error
/// quotes (an unknown command word, a word that is no userid) could carry any text,
/// a link included, of any length.
fn without_words(e: &CommandError) -> String {
    match e {
        CommandError::Empty | CommandError::TooLong { .. } => e.to_string(),
        CommandError::Unknown(_) | CommandError::OtherGame(_) => {
            "The line does not start with a command. Commands are: help, signup, change, signoff, list, multiple, and yinsh ... (send \"help\" for the list).".to_string()
        }
        CommandError::DidYouMean { .. } | CommandError::WithoutYinsh { .. } => {
            "The command word is misspelt or \"yinsh\" is missing before it.".to_string()
        }
        CommandError::UnknownYinsh(_) => {
            "The word after \"yinsh\" is not a yinsh command.".to_string()
        }
        CommandError::Syntax { usage, .. } => {
            format!("The line does not fit the command's syntax: {usage}")
        }
    }
}
