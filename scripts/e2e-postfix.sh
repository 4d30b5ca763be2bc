#!/usr/bin/env bash
# End-to-end test of yinsh-pbem behind a real MTA (Postfix), local delivery only.
#
# As root on a Debian-like machine: installs Postfix if missing (Local only), points it
# at the test domain yinsh.test (loopback only, nothing relayed), adds the unix users
# alice and bob (Maildir/) and a system user yinshpbem that runs the server, and routes
#   yinsh@yinsh.test        through a pipe(8) transport in master.cf (with ${sender})
#   yinsh-alias@yinsh.test  through an alias pipe ("|command") in an alias file owned
#                           by yinshpbem, so local(8) runs it as that user.
# Then plays a short game by mail (two signups, a challenge, placements), checking that
# each player's Maildir gets its board mail; breaks the server's config so `deliver`
# exits 75 and checks that Postfix defers the move (status=deferred) and, once fixed
# and `postqueue -f`, delivers it (status=sent) and the move is applied and answered.
# Then ends the game by pressing Reply only: each player answers their newest board
# mail (Re: Subject, In-Reply-To, References, the mail quoted) with a placement, a
# comment, and finally `resign`; no password is sent.
#
# Replies are DKIM-signed by opendkim as a milter (key made by opendkim-genkey) and
# the signature of a board mail as delivered is checked by dkimpy
# (scripts/dkim-verify.py, the key record given directly). Finally a real bounce: a
# signup from ghost@yinsh.test, a mailbox that does not exist, gets its verify mail
# bounced by Postfix to the reply's VERP bounce address (recipient_delimiter = +),
# which reaches the server through the same pipe and marks ghost@ failing
# ([mail] hard_bounces = 1 here); `status` counts it.
#
# Cleans up on exit (trap): stops Postfix and opendkim, restores the files it changed, removes the
# users and files it added (the postfix package stays installed). Exit 0 on success,
# non-zero on failure; exit 0 with "SKIPPED" where it cannot run (not root, no apt-get).
# Env: YINSH_PBEM_BIN=path uses that binary instead of `cargo build --release`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DOMAIN=yinsh.test
SERVER="yinsh@$DOMAIN"
SVC_USER=yinshpbem
LIB=/usr/local/lib/yinsh-e2e          # the binary, readable by the pipe user
ETC=/etc/yinsh-e2e                    # config.toml
VAR=/var/lib/yinsh-e2e                # the server user's home; the game home below it
HOME_DIR="$VAR/games"
BACKUP=/var/backups/yinsh-e2e         # copies of the Postfix files we change
MAILLOG=/var/log/yinsh-e2e-postfix.log
WAIT=60                               # seconds to wait for any one mail
PLAYERS=(alice bob)

say() { printf '== %s\n' "$*"; }
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    echo "SKIPPED e2e-postfix: must run as root (it installs and configures Postfix)"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "SKIPPED e2e-postfix: no apt-get on this machine (Debian/Ubuntu only)"
    exit 0
fi

# ---------------------------------------------------------------- clean-up (trap)
# shellcheck source=scripts/e2e-postfix-lib.sh
. "$ROOT/scripts/e2e-postfix-lib.sh"
# Undo everything this script adds or changes (also what an interrupted run left).
restore() {
    if [ -f "$ETC/opendkim.pid" ]; then kill "$(cat "$ETC/opendkim.pid")" 2>/dev/null; fi
    postfix_give_back "$BACKUP"
    if [ -e /etc/aliases ] && command -v newaliases >/dev/null 2>&1; then
        newaliases >/dev/null 2>&1
    fi
    rm -f /etc/postfix/yinsh-transport /etc/postfix/yinsh-transport.db \
        /etc/postfix/yinsh-aliases /etc/postfix/yinsh-aliases.db
    # Only the users this script created (listed in $BACKUP/users).
    if [ -f "$BACKUP/users" ]; then
        while read -r u; do
            if id "$u" >/dev/null 2>&1; then userdel -r "$u" >/dev/null 2>&1; fi
            rm -rf "/home/$u" "/var/mail/$u"
        done <"$BACKUP/users"
    fi
    rm -rf "$LIB" "$ETC" "$VAR" "$MAILLOG" "$BACKUP"
    return 0
}
on_exit() {
    local rc=$?
    set +e
    say "cleaning up"
    if [ "$rc" != 0 ] && [ -s "$MAILLOG" ]; then
        echo "---- last lines of the Postfix log ($MAILLOG)"
        tail -n 40 "$MAILLOG"
    fi
    restore
    if [ "$rc" = 0 ]; then echo "e2e-postfix: PASSED"; else echo "e2e-postfix: FAILED (exit $rc)"; fi
    exit "$rc"
}

if [ -d "$BACKUP" ]; then
    say "undoing what an interrupted earlier run left"
    (set +e; restore)
fi
# This script takes Postfix over: never on a machine where it is in use.
if command -v postfix >/dev/null 2>&1; then
    if postfix status >/dev/null 2>&1; then
        echo "SKIPPED e2e-postfix: Postfix is running here; this test reconfigures, stops and"
        echo "        empties it, so run it on a throw-away machine (CI) with Postfix stopped"
        exit 0
    fi
    if [ -n "$(find /var/spool/postfix/maildrop /var/spool/postfix/incoming \
        /var/spool/postfix/active /var/spool/postfix/deferred -type f 2>/dev/null | head -n 1)" ]; then
        echo "SKIPPED e2e-postfix: the Postfix queue holds mail; this test would delete it"
        exit 0
    fi
fi
trap on_exit EXIT
# A signal (e.g. from `timeout`) ends the script through on_exit too.
trap 'exit 143' TERM INT HUP

# ---------------------------------------------------------------- the binary
release_binary

# ---------------------------------------------------------------- Postfix
if ! command -v postfix >/dev/null 2>&1; then
    say "installing postfix (Local only)"
    echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
    echo "postfix postfix/mailname string $DOMAIN" | debconf-set-selections
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postfix >/dev/null
fi
command -v postfix >/dev/null 2>&1 || fail "postfix did not install"
if ! command -v opendkim >/dev/null 2>&1 || ! command -v opendkim-genkey >/dev/null 2>&1; then
    say "installing opendkim"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends opendkim opendkim-tools >/dev/null
fi
python3 -c "import dkim" 2>/dev/null || fail "python3 lacks dkimpy (pip install dkimpy pynacl)"
postfix stop >/dev/null 2>&1 || true

postfix_save "$BACKUP"

say "users: ${PLAYERS[*]} (Maildir) and $SVC_USER (runs the server)"
# Never touch an account this script did not create.
for u in "${PLAYERS[@]}" "$SVC_USER"; do
    if id "$u" >/dev/null 2>&1; then
        fail "a user $u already exists and was not created by this script; refusing to use or remove it"
    fi
done
for u in "${PLAYERS[@]}"; do
    echo "$u" >>"$BACKUP/users"
    useradd -m -s /usr/sbin/nologin "$u"
done
echo "$SVC_USER" >>"$BACKUP/users"
useradd --system --home-dir "$VAR" --shell /usr/sbin/nologin "$SVC_USER"

install -d -m 0755 "$LIB" "$ETC"
install -m 0755 "$BIN_SRC" "$LIB/yinsh-pbem"
BIN="$LIB/yinsh-pbem"
rm -rf "$VAR"
install -d -m 0750 -o "$SVC_USER" -g "$SVC_USER" "$VAR" "$HOME_DIR"

write_config() {
    cat >"$ETC/config.toml" <<EOF
home = "$HOME_DIR"
from = "YINSH PBeM <$SERVER>"

[transport]
kind = "sendmail"
path = "/usr/sbin/sendmail"

[mail]
hard_bounces = 1
EOF
    chmod 0644 "$ETC/config.toml"
}
write_config
runuser -u "$SVC_USER" -- "$BIN" check-config --config "$ETC/config.toml" | sed 's/^/   check-config: /'

say "configuring Postfix for $DOMAIN, loopback only, local delivery only"
echo "$DOMAIN" >/etc/mailname
touch /etc/aliases
postconf -e \
    "myhostname = mail.$DOMAIN" \
    "mydomain = $DOMAIN" \
    "myorigin = $DOMAIN" \
    "mydestination = $DOMAIN, localhost" \
    "inet_interfaces = loopback-only" \
    "inet_protocols = ipv4" \
    "mynetworks = 127.0.0.0/8" \
    "relayhost =" \
    "default_transport = error:this test machine delivers locally only" \
    "relay_transport = error:this test machine delivers locally only" \
    "home_mailbox = Maildir/" \
    "mailbox_command =" \
    "alias_maps = hash:/etc/aliases, hash:/etc/postfix/yinsh-aliases" \
    "alias_database = hash:/etc/aliases, hash:/etc/postfix/yinsh-aliases" \
    "transport_maps = hash:/etc/postfix/yinsh-transport" \
    "yinsh_destination_recipient_limit = 1" \
    "maillog_file = $MAILLOG" \
    "recipient_delimiter = +" \
    "smtpd_milters = inet:127.0.0.1:8891" \
    "non_smtpd_milters = inet:127.0.0.1:8891" \
    "milter_default_action = accept" \
    "biff = no"

# opendkim signs every mail Postfix takes from this machine (the server's replies come
# by sendmail: non_smtpd_milters), with a key made here; docs/operations.md shows it.
install -d -m 0755 "$ETC/dkim"
opendkim-genkey -D "$ETC/dkim" -d "$DOMAIN" -s e2e
cat >"$ETC/opendkim.conf" <<EOF
Syslog              no
Mode                s
Domain              $DOMAIN
Selector            e2e
KeyFile             $ETC/dkim/e2e.private
Canonicalization    relaxed/relaxed
Socket              inet:8891@127.0.0.1
PidFile             $ETC/opendkim.pid
EOF
opendkim -x "$ETC/opendkim.conf" || fail "opendkim did not start"
DKIM_RECORD=$(grep -o '"[^"]*"' "$ETC/dkim/e2e.txt" | tr -d '"\n')

# pipe(8): one mail per call, the envelope sender passed on, run as $SVC_USER.
# (These two lines are quoted in docs/operations.md.)
postconf -M -e "yinsh/unix=yinsh unix - n n - - pipe flags=q user=$SVC_USER argv=$BIN deliver --config $ETC/config.toml --sender=\${sender}"
postconf -M postlog/unix-dgram >/dev/null 2>&1 ||
    postconf -M -e "postlog/unix-dgram=postlog unix-dgram n - n - 1 postlogd"
echo "$SERVER yinsh:" >/etc/postfix/yinsh-transport
postmap /etc/postfix/yinsh-transport

# The alias route: local(8) runs a "|command" alias as the owner of the alias file.
echo "yinsh-alias: \"|$BIN deliver --config $ETC/config.toml\"" >/etc/postfix/yinsh-aliases
chmod 0644 /etc/postfix/yinsh-aliases
postalias /etc/postfix/yinsh-aliases
chown "$SVC_USER:$SVC_USER" /etc/postfix/yinsh-aliases /etc/postfix/yinsh-aliases.db
newaliases

rm -f "$MAILLOG"
postfix check
postfix start >/dev/null
postfix status >/dev/null 2>&1 || fail "postfix did not start"

# ---------------------------------------------------------------- helpers
SEQ=0
# send FROM_USER SUBJECT [TO]: a mail from FROM_USER@yinsh.test, envelope sender the
# same, with an empty body (a body would be a comment on the move).
send() {
    local user=$1 subject=$2 to=${3:-$SERVER}
    SEQ=$((SEQ + 1))
    printf 'From: %s <%s@%s>\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <e2e-%s-%s-%s@%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n\n' \
        "$user" "$user" "$DOMAIN" "$to" "$subject" "$(date -R)" "$SEQ" "$$" "$(date +%s)" "$DOMAIN" |
        /usr/sbin/sendmail -i -f "$user@$DOMAIN" "$to"
}

# count USER: mails in USER's Maildir.
count() {
    local d="/home/$1/Maildir"
    find "$d/new" "$d/cur" -type f 2>/dev/null | wc -l
}

# wait_exactly USER N SUBJECT-PATTERN: wait until USER has N mails (up to $WAIT s),
# then fail unless it is exactly N (the pattern only names the awaited mail).
wait_exactly() {
    local user=$1 n=$2 subject=$3 waited=0
    while [ "$(count "$user")" -lt "$n" ]; do
        [ "$waited" -ge "$WAIT" ] && fail "$user has $(count "$user") mails after ${WAIT}s, expected $n (subject /$subject/)"
        sleep 1
        waited=$((waited + 1))
    done
    [ "$(count "$user")" -eq "$n" ] || fail "$user has $(count "$user") mails, expected exactly $n"
}

# expect USER N SUBJECT-PATTERN [BODY-PATTERN]: wait until USER has N mails, the
# newest matching the Subject (and the body) patterns (grep -E).
expect() {
    local user=$1 n=$2 subject=$3 body=${4:-} newest
    wait_exactly "$user" "$n" "$subject"
    newest=$(ls -t "/home/$user/Maildir/new"/* | head -n 1)
    grep -Eq "^Subject: $subject" "$newest" || fail "$user's newest mail has Subject $(grep -m1 '^Subject:' "$newest"), expected /$subject/"
    grep -q "^X-Loop: $SERVER" "$newest" || fail "$user's mail has no X-Loop: $SERVER"
    grep -q "^Auto-Submitted: auto-replied" "$newest" || fail "$user's mail has no Auto-Submitted"
    if [ -n "$body" ]; then
        grep -Eq -- "$body" "$newest" || fail "$user's mail lacks /$body/: $(cat "$newest")"
    fi
    printf '   %-5s got #%d: %s\n' "$user" "$n" "$(grep -m1 '^Subject:' "$newest")"
}

# expect_among USER N SUBJECT-PATTERN BODY-PATTERN: wait until USER has N mails, one
# of the newest two matching the Subject and the body patterns (grep -E): for the
# mails one run sends a player at once, which Postfix may deliver in either order.
expect_among() {
    local user=$1 n=$2 subject=$3 body=$4 f found=
    wait_exactly "$user" "$n" "$subject"
    for f in $(ls -t "/home/$user/Maildir/new"/* | head -n 2); do
        if grep -Eq "^Subject: $subject" "$f" && grep -Eq -- "$body" "$f" &&
            grep -q "^X-Loop: $SERVER" "$f"; then
            found=$f
        fi
    done
    [ -n "$found" ] || fail "none of $user's newest two mails has Subject /$subject/ and /$body/: $(ls -t "/home/$user/Maildir/new"/* | head -n 2 | xargs grep -h -m1 '^Subject:')"
    printf '   %-5s got #%d: %s\n' "$user" "$n" "$(grep -m1 '^Subject:' "$found")"
}

# reply USER TEXT: USER presses Reply on their newest mail and types TEXT above the
# quoted mail, as a mail program does: Re: Subject, In-Reply-To the mail's
# Message-ID, References its References and Message-ID; no password anywhere.
reply() {
    local user=$1 text=$2 newest subject id refs
    newest=$(ls -t "/home/$user/Maildir/new"/* | head -n 1)
    subject=$(grep -m1 '^Subject:' "$newest" | sed 's/^Subject: //')
    id=$(grep -m1 -i '^Message-ID:' "$newest" | sed 's/^[^:]*:[[:space:]]*//')
    refs=$(awk '/^\r?$/ { exit } /^[ \t]/ { if (p) printf " %s", $0; next } { p = 0 }
        tolower($0) ~ /^references:/ { p = 1; sub(/^[^:]*:[ \t]*/, ""); printf "%s", $0 }' "$newest")
    SEQ=$((SEQ + 1))
    {
        printf 'From: %s <%s@%s>\nTo: %s\nSubject: Re: %s\nDate: %s\nMessage-ID: <e2e-reply-%s-%s@%s>\nIn-Reply-To: %s\nReferences: %s %s\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%s\n\nOn %s, YINSH PBeM <%s> wrote:\n' \
            "$user" "$user" "$DOMAIN" "$SERVER" "$subject" "$(date -R)" "$SEQ" "$$" "$DOMAIN" "$id" "$refs" "$id" "$text" "$(date -R)" "$SERVER"
        awk 'body { print "> " $0 } /^\r?$/ { body = 1 }' "$newest"
    } | /usr/sbin/sendmail -i -f "$user@$DOMAIN" "$SERVER"
}

# log_count PATTERN: how many lines of the Postfix log match (grep -E).
log_count() { grep -Ec -- "$1" "$MAILLOG" 2>/dev/null || true; }

# wait_log PATTERN [N]: until at least N (default 1) lines of the Postfix log match.
wait_log() {
    local waited=0
    until [ "$(log_count "$1")" -ge "${2:-1}" ]; do
        [ "$waited" -ge "$WAIT" ] && fail "the Postfix log never showed /$1/"
        sleep 1
        waited=$((waited + 1))
    done
}

# ---------------------------------------------------------------- the game
say "signups, each address confirmed by pressing Reply on its verify mail"
for who in alice bob; do
    send "$who" "signup $who ${who:0:1}pw"
    expect "$who" 1 "verify $who [A-Z0-9]{10}$" "press Reply"
    verify=$(grep -m1 '^Subject:' "$(ls -t "/home/$who/Maildir/new"/* | head -n 1)" | sed 's/^Subject: //')
    send "$who" "Re: $verify"
    expect "$who" 2 "Address confirmed for $who"
done

say "challenge"
send alice "yinsh challenge alice bob"
expect alice 3 "New Yinsh Board 101 alice" "yinsh move 101 alice <password>"
expect bob 3 "New Yinsh Board 101 alice"

say "placements through the pipe(8) transport"
MOVES=(e5 f6 d4 g7 c3 h8)
n=1
for mv in "${MOVES[@]}"; do
    if [ $((n % 2)) = 1 ]; then who=alice pw=apw; else who=bob pw=bpw; fi
    send "$who" "yinsh move 101 $who $pw $mv#$n"
    expect alice $((n + 3)) "Yinsh Board 101" "$mv"
    expect bob $((n + 3)) "Yinsh Board 101" "$mv"
    n=$((n + 1))
done
grep -q "\"text\": \"h8\"" "$HOME_DIR/boards/101.json" || fail "the game file lacks h8"
wait_log "to=<$SERVER>.*relay=yinsh.*status=sent"
echo "   Postfix: $(grep -c "to=<$SERVER>.*status=sent" "$MAILLOG") mails to $SERVER status=sent (delivered via yinsh service)"

say "the alias route: yinsh-alias@$DOMAIN"
send alice "yinsh help" "yinsh-alias@$DOMAIN"
expect alice $((n + 3)) "." "yinsh move"
wait_log "to=<yinsh-alias@$DOMAIN>.*relay=local.*status=sent \(delivered to command"
echo "   Postfix: yinsh-alias status=sent (delivered to command)"
a=$((n + 3))

SENT_BEFORE=$(log_count "to=<$SERVER>.*relay=yinsh.*status=sent")
say "exit 75: a broken config makes Postfix defer the move"
echo 'this is = not [ valid toml' >"$ETC/config.toml"
send alice "yinsh move 101 alice apw b2#$n"
wait_log "to=<$SERVER>.*status=deferred"
grep -E "to=<$SERVER>.*status=deferred" "$MAILLOG" | tail -n 1 | sed 's/^/   log: /'
mailq | grep -q "$SERVER" || fail "the deferred move is not in the queue (mailq)"
echo "   mailq: $(mailq | tail -n 1)"
grep -q '"text": "b2"' "$HOME_DIR/boards/101.json" && fail "a deferred move was applied"
[ "$(count alice)" = "$a" ] || fail "alice got mail while deliver was failing"

say "fixed: postqueue -f delivers the deferred move once"
write_config
postqueue -f
expect alice $((a + 1)) "Yinsh Board 101" "b2"
expect bob $((n + 3)) "Yinsh Board 101" "b2"
grep -q '"text": "b2"' "$HOME_DIR/boards/101.json" || fail "the retried move was not applied"
wait_log "to=<$SERVER>.*relay=yinsh.*status=sent" $((SENT_BEFORE + 1))
grep -E "to=<$SERVER>.*status=sent" "$MAILLOG" | tail -n 1 | sed 's/^/   log: /'
sleep 2
mailq | grep -q "Mail queue is empty" || fail "the queue is not empty: $(mailq)"
[ "$(grep -c '"text"' "$HOME_DIR/boards/101.json")" = 7 ] || fail "expected 7 turns in the game file"

say "the game ends by replies: each player presses Reply on their newest board mail"
newest_id() { grep -m1 -i '^Message-ID:' "$(ls -t "/home/$1/Maildir/new"/* | head -n 1)"; }
newest_id bob | grep -q '<y1~b~101~8~bob~' || fail "bob's board mail carries no reply token: $(newest_id bob)"
a=$((a + 1)) b=$((n + 3))
reply bob "e4"
expect alice $((a + 1)) "Yinsh Board 101" "e4"
expect bob $((b + 1)) "Yinsh Board 101" "e4"
reply alice "f5
Well played so far."
expect alice $((a + 2)) "Yinsh Board 101" "f5"
expect bob $((b + 2)) "Yinsh Board 101" "alice writes:"
reply bob "resign"
# The mail that ends the game brings each player the last board at once; the robot's
# review is made off the mail path, by the next flush (the package's timer runs it
# every 5 minutes), and mailed to each player then.
expect alice $((a + 3)) "Yinsh Board 101 *$" "bob resigned"
expect bob $((b + 3)) "Yinsh Board 101 *$" "Game won by alice"
[ -e "$HOME_DIR/reviews/owed/101.json" ] || fail "the game's end recorded no review owed"
runuser -u "$SVC_USER" -- "$BIN" flush --config "$ETC/config.toml"
expect alice $((a + 4)) "Yinsh Board 101 review" "playouts|turning points|preferred"
expect bob $((b + 4)) "Yinsh Board 101 review" "playouts|turning points|preferred"
grep -q '"reason": "resigned"' "$HOME_DIR/boards/101.json" || fail "the game did not end by bob's reply"
grep -qE 'apw|bpw' "$HOME_DIR/log/yinsh-pbem.log" && fail "a password in the log"
[ "$(grep -c '"text"' "$HOME_DIR/boards/101.json")" = 10 ] || fail "expected 9 turns and alice's comment in the game file"

say "the replies are DKIM-signed by opendkim: dkimpy verifies a board mail as delivered"
newest=$(ls -t /home/alice/Maildir/new/* | head -n 1)
grep -A3 '^DKIM-Signature:' "$newest" | grep -q "d=$DOMAIN" ||
    fail "alice's board mail carries no DKIM-Signature of $DOMAIN"
python3 "$ROOT/scripts/dkim-verify.py" "e2e._domainkey.$DOMAIN" "$DKIM_RECORD" "$newest" | sed 's/^/   /'
python3 "$ROOT/scripts/dkim-verify.py" "e2e._domainkey.$DOMAIN" "$DKIM_RECORD" "$newest" >/dev/null ||
    fail "dkimpy refused opendkim's signature"

say "a real bounce: a reply to a mailbox that does not exist comes back and marks it failing"
send ghost "signup ghost gpw"
wait_log "to=<ghost@$DOMAIN>.*status=bounced"
wait_log "to=<yinsh\+bounce-[0-9a-f]{16}-ghost=$DOMAIN@$DOMAIN>.*relay=yinsh.*status=sent"
grep -q "hard bounce for ghost@$DOMAIN (multipart/report, 1 counted): marked failing" "$HOME_DIR/log/yinsh-pbem.log" ||
    fail "the server did not mark ghost@ failing: $(tail -n 5 "$HOME_DIR/log/yinsh-pbem.log")"
runuser -u "$SVC_USER" -- "$BIN" status --config "$ETC/config.toml" | sed 's/^/   status: /'
runuser -u "$SVC_USER" -- "$BIN" status --config "$ETC/config.toml" | grep -q "failing addresses:    1" ||
    fail "status does not count ghost@ failing"
runuser -u "$SVC_USER" -- "$BIN" status --config "$ETC/config.toml" | grep -q "last mail handled:    20" ||
    fail "status does not name the last mail handled"

say "summary"
for u in "${PLAYERS[@]}"; do echo "   $u: $(count "$u") mails in ~/Maildir"; done
echo "   game 101: $(grep -c '"text"' "$HOME_DIR/boards/101.json") turns; Postfix log: $(grep -c 'status=sent' "$MAILLOG") sent, $(grep -c 'status=deferred' "$MAILLOG") deferred"
