//! The texts of [`Refusal::SenderNotVerified`](super::Refusal::SenderNotVerified), one
//! for each reason a mail's From proves nothing (`mail::auth_results::Doubt`).

use crate::mail::auth_results::Doubt;

/// The text of [`Refusal::SenderNotVerified`](super::Refusal::SenderNotVerified) for `doubt`.
pub(super) fn sender_doubt(doubt: Doubt) -> &'static str {
    match doubt {
        Doubt::Failed => {
            "This mail failed our mail system's sender checks (DMARC/DKIM/SPF): its From is not an address it was sent from, so no password, reply token or code is accepted from it and nothing was done. Send the command from your own mail account."
        }
        Doubt::SeveralFrom => {
            "This mail names more than one sender (several From headers, or several addresses or a group in one): our mail system checks one of them and we would read another, so no password, reply token or code is accepted from it and nothing was done. Send the command with your own address alone in From."
        }
        Doubt::NoPass => {
            "Our mail system could not confirm that this mail comes from the address in its From (no DMARC pass), which this server requires before a Reply or a play link acts for a player: nothing was done. Send the command with your password instead (\"help\" shows how), or from a mail account whose mail passes DMARC."
        }
    }
}
