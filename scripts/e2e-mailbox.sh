#!/usr/bin/env bash
# End-to-end test of yinsh-pbem on a hosted mailbox, the way most operators run it:
# the server's address is a mailbox at a "provider", fetched by getmail6, and replies
# leave through the provider's submission port with STARTTLS and a login.
#
# As root on a Debian-like machine: installs Postfix, Dovecot (IMAP) and getmail6 if
# missing, makes a test CA and a certificate for 127.0.0.1 with openssl, and sets up
#   - the "provider": Dovecot IMAPS on 127.0.0.1:<port> holding yinsh@host.test
#     (a virtual mailbox Postfix delivers into), and a Postfix submission service on
#     127.0.0.1:<port> that requires STARTTLS and SMTP AUTH (Dovecot SASL) for the
#     same account; both ports are chosen at run time, nothing listens on port 25;
#   - the players carol and dave: local users with a Maildir (domain play.test);
#   - the server: a system user running `getmail` with an MDA_external destination
#     `yinsh-pbem deliver`, and `[transport] kind = "smtp"` with `ca_file`.
# Then: check-config --test-smtp (a login that works; without the CA file the
# certificate is refused); two signups confirmed by replying to the verify mail; a
# whole blitz game (each turn chosen by `yinsh-pbem think`) with every turn fetched from
# IMAP and every board mail read from the players' Maildirs; a reply spooled while the
# submission service is down and sent by the next `flush`; a mail that makes `deliver`
# exit 75 stays in the IMAP mailbox and is handled by the next fetch (nothing lost,
# nothing answered twice); a wrong SMTP password as a clear error from
# `check-config --test-smtp` and in the server's log, its reply kept and sent once the
# password is fixed.
#
# Cleans up on exit (trap): stops Dovecot and Postfix, restores the Postfix files,
# removes the users and files it added (the packages stay installed). Exit 0 on
# success; exit 0 with "SKIPPED" where it cannot run (not root, no apt-get, Postfix or
# Dovecot in use here). Under CI, packages that cannot be installed are a failure.
# Env: YINSH_PBEM_BIN=path uses that binary instead of `cargo build --release`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PLAY=play.test                        # the players' domain (local Maildirs)
HOST=host.test                        # the provider's domain (the server's mailbox)
SERVER="yinsh@$HOST"
SVC_USER=yinshmbx                     # runs getmail and the server
VMAIL_USER=yinshvmail                 # owns the provider's mailboxes
LIB=/usr/local/lib/yinsh-e2e-mbx      # the binary
ETC=/etc/yinsh-e2e-mbx                # config.toml, getmailrc, passwords, dovecot.conf, TLS
VAR=/var/lib/yinsh-e2e-mbx            # server/ (the server user's home), vmail/, dovecot/
SVC_HOME="$VAR/server"
GAMES="$SVC_HOME/games"
VMAIL="$VAR/vmail"
INBOX="$VMAIL/$HOST/yinsh/Maildir"
BACKUP=/var/backups/yinsh-e2e-mbx     # copies of the Postfix files we change
MAILLOG=/var/log/yinsh-e2e-mbx-postfix.log
DOVELOG=/var/log/yinsh-e2e-mbx-dovecot.log
AUTH_SOCKET=private/yinsh-e2e-auth    # Dovecot SASL, below Postfix's queue directory
PASSWORD="pw-$RANDOM-$RANDOM"         # the mailbox's (IMAP and SMTP) password
WAIT=60
PLAYERS=(carol dave)

say() { printf '== %s\n' "$*"; }
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}
skip() {
    echo "SKIPPED e2e-mailbox: $*"
    exit 0
}

[ "$(id -u)" = 0 ] || skip "must run as root (it installs and configures Postfix and Dovecot)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get on this machine (Debian/Ubuntu only)"

# ---------------------------------------------------------------- clean-up (trap)
# shellcheck source=scripts/e2e-postfix-lib.sh
. "$ROOT/scripts/e2e-postfix-lib.sh"
DOVECOT_PID="$VAR/dovecot/run/master.pid"
restore() {
    if [ -f "$DOVECOT_PID" ]; then
        kill "$(cat "$DOVECOT_PID")" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            [ -f "$DOVECOT_PID" ] && kill -0 "$(cat "$DOVECOT_PID")" 2>/dev/null || break
            sleep 0.5
        done
    fi
    postfix_give_back "$BACKUP"
    rm -f /etc/postfix/yinsh-e2e-vmailbox /etc/postfix/yinsh-e2e-vmailbox.db \
        "/var/spool/postfix/$AUTH_SOCKET"
    if [ -f "$BACKUP/users" ]; then
        while read -r u; do
            if id "$u" >/dev/null 2>&1; then userdel -r "$u" >/dev/null 2>&1; fi
            rm -rf "/home/$u" "/var/mail/$u"
        done <"$BACKUP/users"
    fi
    rm -rf "$LIB" "$ETC" "$VAR" "$MAILLOG" "$DOVELOG" "$BACKUP"
    return 0
}
on_exit() {
    local rc=$?
    set +e
    say "cleaning up"
    if [ "$rc" != 0 ]; then
        for f in "$MAILLOG" "$DOVELOG" "$GAMES/log/yinsh-pbem.log" "$VAR/getmail.out"; do
            [ -s "$f" ] && { echo "---- last lines of $f"; tail -n 25 "$f"; }
        done
    fi
    restore
    if [ "$rc" = 0 ]; then echo "e2e-mailbox: PASSED"; else echo "e2e-mailbox: FAILED (exit $rc)"; fi
    exit "$rc"
}

if [ -d "$BACKUP" ]; then
    say "undoing what an interrupted earlier run left"
    (set +e; restore)
fi
if command -v postfix >/dev/null 2>&1 && postfix status >/dev/null 2>&1; then
    skip "Postfix is running here; this test reconfigures, stops and empties it"
fi
if pgrep -x dovecot >/dev/null 2>&1; then
    skip "Dovecot is running here; this test runs a Dovecot of its own"
fi

# ---------------------------------------------------------------- packages
need=()
command -v postfix >/dev/null 2>&1 || need+=(postfix)
command -v dovecot >/dev/null 2>&1 || need+=(dovecot-core)
[ -x /usr/lib/dovecot/imap ] || need+=(dovecot-imapd)
command -v getmail >/dev/null 2>&1 || need+=(getmail6)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ "${#need[@]}" -gt 0 ]; then
    say "installing ${need[*]}"
    echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
    echo "postfix postfix/mailname string $PLAY" | debconf-set-selections
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${need[@]}" >/dev/null; }; then
        [ -n "${CI:-}" ] && fail "cannot install ${need[*]}"
        skip "cannot install ${need[*]}"
    fi
fi
# A package install may start its service (where policy-rc.d allows it).
pgrep -x dovecot >/dev/null 2>&1 && { [ -n "${CI:-}" ] && fail "a Dovecot is running"; skip "a Dovecot is running"; }
postfix stop >/dev/null 2>&1 || true

trap on_exit EXIT
trap 'exit 143' TERM INT HUP

# ---------------------------------------------------------------- the binary
release_binary

postfix_save "$BACKUP"

say "users: ${PLAYERS[*]} (Maildir), $SVC_USER (the server), $VMAIL_USER (the provider's mailboxes)"
for u in "${PLAYERS[@]}" "$SVC_USER" "$VMAIL_USER"; do
    id "$u" >/dev/null 2>&1 && fail "a user $u already exists and was not created by this script"
done
for u in "${PLAYERS[@]}"; do
    echo "$u" >>"$BACKUP/users"
    useradd -m -s /usr/sbin/nologin "$u"
done
for u in "$SVC_USER" "$VMAIL_USER"; do echo "$u" >>"$BACKUP/users"; done
useradd --system --home-dir "$SVC_HOME" --shell /usr/sbin/nologin "$SVC_USER"
useradd --system --home-dir "$VMAIL" --shell /usr/sbin/nologin "$VMAIL_USER"

install -d -m 0755 "$LIB" "$VAR" "$ETC"
install -m 0755 "$BIN_SRC" "$LIB/yinsh-pbem"
BIN="$LIB/yinsh-pbem"
install -d -m 0750 -o "$SVC_USER" -g "$SVC_USER" "$SVC_HOME" "$GAMES" "$SVC_HOME/getmail"
install -d -m 0750 -o "$VMAIL_USER" -g "$VMAIL_USER" "$VMAIL"
install -d -m 0755 "$VAR/dovecot"

# Two free ports on 127.0.0.1, chosen now.
read -r SUBMIT_PORT IMAPS_PORT < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
echo "   submission 127.0.0.1:$SUBMIT_PORT (STARTTLS + AUTH), IMAPS 127.0.0.1:$IMAPS_PORT"

# ---------------------------------------------------------------- a test CA
say "a test CA and a certificate for 127.0.0.1 (openssl)"
TLS="$ETC/tls"
install -d -m 0755 "$TLS"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=yinsh e2e test CA" \
    -keyout "$TLS/ca.key" -out "$TLS/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$TLS/server.key" -out "$TLS/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$TLS/ext"
openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" \
    -CAcreateserial -days 2 -extfile "$TLS/ext" -out "$TLS/server.pem" 2>/dev/null
chmod 0600 "$TLS/ca.key" "$TLS/server.key"
chmod 0644 "$TLS/ca.pem" "$TLS/server.pem"

# ---------------------------------------------------------------- Dovecot
say "Dovecot: IMAPS and SASL for $SERVER"
echo "$SERVER:{PLAIN}$PASSWORD" >"$ETC/dovecot.passwd"
chmod 0640 "$ETC/dovecot.passwd"
chgrp dovecot "$ETC/dovecot.passwd"
DH=""
[ -f /usr/share/dovecot/dh.pem ] && DH="ssl_dh = </usr/share/dovecot/dh.pem"
cat >"$ETC/dovecot.conf" <<EOF
protocols = imap
listen = 127.0.0.1
base_dir = $VAR/dovecot/run
state_dir = $VAR/dovecot/state
instance_name = yinsh-e2e-mbx
log_path = $DOVELOG
ssl = required
ssl_cert = <$TLS/server.pem
ssl_key = <$TLS/server.key
$DH
disable_plaintext_auth = yes
auth_mechanisms = plain login
mail_location = maildir:$VMAIL/%d/%n/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $ETC/dovecot.passwd
}
userdb {
  driver = static
  args = uid=$VMAIL_USER gid=$VMAIL_USER home=$VMAIL/%d/%n
}
service imap-login {
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service auth {
  unix_listener /var/spool/postfix/$AUTH_SOCKET {
    mode = 0660
    user = postfix
    group = postfix
  }
}
EOF
dovecot -c "$ETC/dovecot.conf" || fail "dovecot did not start (see $DOVELOG)"

# ---------------------------------------------------------------- Postfix
say "Postfix: $PLAY local, $HOST a virtual mailbox, submission with STARTTLS and AUTH"
echo "$PLAY" >/etc/mailname
touch /etc/aliases
echo "$SERVER $HOST/yinsh/Maildir/" >/etc/postfix/yinsh-e2e-vmailbox
postmap /etc/postfix/yinsh-e2e-vmailbox
postconf -e \
    "myhostname = mail.$PLAY" \
    "mydomain = $PLAY" \
    "myorigin = $PLAY" \
    "mydestination = $PLAY, localhost" \
    "inet_interfaces = loopback-only" \
    "inet_protocols = ipv4" \
    "mynetworks = 127.0.0.0/8" \
    "relayhost =" \
    "default_transport = error:this test machine delivers locally only" \
    "relay_transport = error:this test machine delivers locally only" \
    "home_mailbox = Maildir/" \
    "mailbox_command =" \
    "alias_maps = hash:/etc/aliases" \
    "alias_database = hash:/etc/aliases" \
    "transport_maps =" \
    "virtual_mailbox_domains = $HOST" \
    "virtual_mailbox_maps = hash:/etc/postfix/yinsh-e2e-vmailbox" \
    "virtual_mailbox_base = $VMAIL" \
    "virtual_uid_maps = static:$(id -u "$VMAIL_USER")" \
    "virtual_gid_maps = static:$(id -g "$VMAIL_USER")" \
    "smtpd_tls_cert_file = $TLS/server.pem" \
    "smtpd_tls_key_file = $TLS/server.key" \
    "smtpd_tls_security_level = may" \
    "maillog_file = $MAILLOG" \
    "biff = no"
# No SMTP on port 25: the players hand mail to sendmail(1), the server to submission.
postconf -MX smtp/inet 2>/dev/null || true
postconf -M -e "127.0.0.1:$SUBMIT_PORT/inet=127.0.0.1:$SUBMIT_PORT inet n - n - - smtpd"
for p in \
    "syslog_name=postfix/submission" \
    "smtpd_tls_security_level=encrypt" \
    "smtpd_tls_auth_only=yes" \
    "smtpd_sasl_auth_enable=yes" \
    "smtpd_sasl_type=dovecot" \
    "smtpd_sasl_path=$AUTH_SOCKET" \
    "smtpd_client_restrictions=permit_sasl_authenticated,reject" \
    "smtpd_relay_restrictions=permit_sasl_authenticated,reject"; do
    postconf -P "127.0.0.1:$SUBMIT_PORT/inet/$p"
done
postconf -M postlog/unix-dgram >/dev/null 2>&1 ||
    postconf -M -e "postlog/unix-dgram=postlog unix-dgram n - n - 1 postlogd"
newaliases
rm -f "$MAILLOG"
postfix check
postfix start >/dev/null
postfix status >/dev/null 2>&1 || fail "postfix did not start"

# ---------------------------------------------------------------- the server
URL="smtp://yinsh%40$HOST:$PASSWORD@127.0.0.1:$SUBMIT_PORT?tls=required"
# write_config [PASSWORD] [EXTRA]: the server's config (the password in the URL).
write_config() {
    cat >"$ETC/config.toml" <<EOF
home = "$GAMES"
from = "YINSH PBeM <$SERVER>"

[transport]
kind = "smtp"
url = "smtp://yinsh%40$HOST:${1:-$PASSWORD}@127.0.0.1:$SUBMIT_PORT?tls=required"
ca_file = "$TLS/ca.pem"
EOF
    chown root:"$SVC_USER" "$ETC/config.toml"
    chmod 0640 "$ETC/config.toml"
}
write_config
echo "$PASSWORD" >"$ETC/imap-password"
cat >"$ETC/getmailrc" <<EOF
[retriever]
type = SimpleIMAPSSLRetriever
server = 127.0.0.1
port = $IMAPS_PORT
username = $SERVER
password_command = ("/bin/cat", "$ETC/imap-password")
mailboxes = ("INBOX",)
ca_certs = $TLS/ca.pem

[destination]
type = MDA_external
path = $BIN
arguments = ("deliver", "--config", "$ETC/config.toml")

[options]
read_all = false
delete = true
verbose = 1
EOF
chown root:"$SVC_USER" "$ETC/imap-password" "$ETC/getmailrc"
chmod 0640 "$ETC/imap-password" "$ETC/getmailrc"

as_svc() { runuser -u "$SVC_USER" -- "$@"; }

say "check-config --test-smtp: connect, STARTTLS, AUTH"
as_svc "$BIN" check-config --test-smtp --config "$ETC/config.toml" >"$VAR/check" ||
    fail "check-config --test-smtp: $(cat "$VAR/check")"
grep -q "smtp login test:    connected (STARTTLS), login accepted" "$VAR/check" ||
    fail "check-config --test-smtp: $(cat "$VAR/check")"
grep -q "$PASSWORD" "$VAR/check" && fail "check-config printed the password"
grep -E "transport:|smtp login" "$VAR/check" | sed 's/^/   /'
# The certificate is verified: without the test CA it is refused, never accepted.
if as_svc env YINSH_PBEM_SMTP_CA_FILE= "$BIN" check-config --test-smtp --config "$ETC/config.toml" >"$VAR/check"; then
    fail "without the CA file the login test passed: $(cat "$VAR/check")"
fi
grep -q "problem: smtp login test: SMTP: TLS failed" "$VAR/check" ||
    fail "without the CA file: $(cat "$VAR/check")"
echo "   without ca_file: $(grep -m1 'problem: smtp login test' "$VAR/check" | cut -c1-110)..."

# ---------------------------------------------------------------- helpers
SEQ=0
# send USER SUBJECT: a mail from USER@play.test to the server's hosted address.
send() {
    SEQ=$((SEQ + 1))
    printf 'From: %s <%s@%s>\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <mbx-%s-%s-%s@%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n\n' \
        "$1" "$1" "$PLAY" "$SERVER" "$2" "$(date -R)" "$SEQ" "$$" "$(date +%s)" "$PLAY" |
        /usr/sbin/sendmail -i -f "$1@$PLAY" "$SERVER"
}
# count USER: mails in USER's Maildir. inbox: mails in the server's IMAP mailbox.
count() { find "/home/$1/Maildir/new" "/home/$1/Maildir/cur" -type f 2>/dev/null | wc -l; }
inbox() { find "$INBOX/new" "$INBOX/cur" -type f 2>/dev/null | wc -l; }
# wait_for WHAT COMMAND N: until COMMAND prints at least N.
wait_for() {
    local waited=0
    until [ "$($2)" -ge "$3" ]; do
        [ "$waited" -ge $((WAIT * 10)) ] && fail "$1: $($2) after ${WAIT}s, expected $3"
        sleep 0.1
        waited=$((waited + 1))
    done
}
# fetch: one getmail run as the server user; its output goes to $VAR/getmail.out.
fetch() { as_svc getmail --getmaildir "$SVC_HOME/getmail" --rcfile "$ETC/getmailrc" >"$VAR/getmail.out" 2>&1; }
# arrive: wait until the server's mailbox holds N mails, then fetch (must succeed).
arrive_and_fetch() {
    wait_for "the server's IMAP mailbox" inbox "$1"
    fetch || fail "getmail failed: $(cat "$VAR/getmail.out")"
}
newest() { ls -t "/home/$1/Maildir/new"/* | head -n 1; }
# expect USER N SUBJECT-PATTERN: wait until USER has N mails, the newest matching.
expect() {
    local user=$1 n=$2 f
    wait_for "$user's Maildir" "count $user" "$n"
    [ "$(count "$user")" -eq "$n" ] || fail "$user has $(count "$user") mails, expected exactly $n"
    f=$(newest "$user")
    grep -Eq "^Subject: $3" "$f" || fail "$user's newest mail has $(grep -m1 '^Subject:' "$f"), expected /$3/"
    grep -q "^X-Loop: $SERVER" "$f" || fail "$user's mail has no X-Loop: $SERVER"
}
# expect_end USER N: after the mail that ended the game and the flush that made the
# robot's review (reviews are made off the mail path): USER has exactly N mails, the
# newest two (in either order) the final board, saying who won, and `Yinsh Board 101
# review`.
expect_end() {
    local user=$1 n=$2 f board= review=
    wait_for "$user's Maildir" "count $user" "$n"
    [ "$(count "$user")" -eq "$n" ] || fail "$user has $(count "$user") mails, expected exactly $n"
    for f in $(ls -t "/home/$user/Maildir/new"/* | head -n 2); do
        grep -q "^X-Loop: $SERVER" "$f" || fail "$user's mail has no X-Loop: $SERVER"
        if grep -q '^Subject: Yinsh Board 101 review$' "$f"; then
            review=$f
        elif grep -qi "won" "$f"; then
            board=$f
        fi
    done
    [ -n "$review" ] || fail "$user got no review of board 101 with the last board"
    [ -n "$board" ] || fail "$user's last board mail does not say who won"
    grep -q "Turning points:" "$review" || fail "$user's review lists no turning points"
}
declare -A N=([carol]=0 [dave]=0)
declare -A PW=([carol]=cpw [dave]=dpw)
log_has() { grep -c -- "$1" "$GAMES/log/yinsh-pbem.log" 2>/dev/null || true; }

# ---------------------------------------------------------------- signups
say "signups through IMAP + getmail, each confirmed by replying to its verify mail"
for who in "${PLAYERS[@]}"; do
    send "$who" "signup $who ${PW[$who]}"
    arrive_and_fetch 1
    N[$who]=$((N[$who] + 1))
    expect "$who" "${N[$who]}" "verify $who [A-Z0-9]{10}$"
    verify=$(grep -m1 '^Subject:' "$(newest "$who")" | sed 's/^Subject: //')
    send "$who" "Re: $verify"
    arrive_and_fetch 1
    N[$who]=$((N[$who] + 1))
    expect "$who" "${N[$who]}" "Address confirmed for $who"
    echo "   $who: signed up and confirmed"
done
grep -q "relay=local.*status=sent" "$MAILLOG" || fail "no reply was delivered locally"
grep -Eq "sasl_method=(PLAIN|LOGIN), sasl_username=$SERVER" "$MAILLOG" ||
    fail "the replies did not come through submission with SASL"
grep -Eq "postfix/submission/smtpd.*disconnect from .* ehlo=2 starttls=1 auth=1 mail=1" "$MAILLOG" ||
    fail "the replies were not submitted after STARTTLS and AUTH"
echo "   Postfix log: replies submitted after STARTTLS and AUTH, sasl_username=$SERVER"

# ---------------------------------------------------------------- the game
say "challenge -blitz, then a whole game; each turn chosen by yinsh-pbem think"
send carol "yinsh challenge -blitz carol dave"
arrive_and_fetch 1
for who in "${PLAYERS[@]}"; do
    N[$who]=$((N[$who] + 1))
    expect "$who" "${N[$who]}" "New Yinsh Board 101"
done
BOARD="$GAMES/boards/101.json"
transcript() { python3 -c 'import json,sys; print("\n".join(t["text"] for t in json.load(open(sys.argv[1]))["turns"]))' "$BOARD"; }
status() { transcript >"$VAR/transcript"; "$BIN" replay --blitz --json "$VAR/transcript"; }
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]] or "")' "$1" "$2"; }

turns=0
spooled_turn=4       # the reply of this turn is spooled while submission is down
tempfail_turn=7      # this turn's mail makes deliver exit 75 first
while :; do
    s=$(status)
    [ "$(field "$s" status)" = in_progress ] || break
    [ "$turns" -lt 80 ] || fail "the game did not end after 80 turns"
    case "$(field "$s" to_move)" in white) who=carol ;; *) who=dave ;; esac
    turn=$("$BIN" think --blitz --level 1 --seed "$((turns + 1))" "$VAR/transcript" 2>/dev/null)
    moveno=$(($(field "$s" turns) + 1))
    before_c=$(count carol) before_d=$(count dave)
    send "$who" "yinsh move 101 $who ${PW[$who]} $turn#$moveno"
    turns=$((turns + 1))
    if [ "$turns" = "$spooled_turn" ]; then
        say "turn $turns: the submission service is down while the move is fetched"
        wait_for "the server's IMAP mailbox" inbox 1
        postfix stop >/dev/null
        fetch || fail "getmail failed: $(cat "$VAR/getmail.out")"
        [ "$(inbox)" = 0 ] || fail "the move was not taken from the mailbox"
        [ "$(log_has 'send failed, kept in the spool')" -ge 1 ] || fail "no 'send failed' line in the log"
        spooled=$(find "$GAMES/spool" -maxdepth 1 -type f -name '*.msg' 2>/dev/null | wc -l)
        [ "$spooled" -ge 2 ] || fail "expected the two board mails in the spool, found $spooled"
        echo "   log: send failed, kept in the spool: ...: $(grep -m1 'send failed, kept in the spool' "$GAMES/log/yinsh-pbem.log" | sed 's/.*kept in the spool: [^ ]*: //' | cut -c1-100)"
        [ "$(count carol)" = "$before_c" ] || fail "carol got mail while submission was down"
        postfix start >/dev/null
        as_svc "$BIN" flush --config "$ETC/config.toml" -v | sed 's/^/   flush: /'
        echo "   ($spooled files were in the spool)"
    elif [ "$turns" = "$tempfail_turn" ]; then
        say "turn $turns: deliver exits 75 (a broken config): the mail stays in the IMAP mailbox"
        wait_for "the server's IMAP mailbox" inbox 1
        cp -p "$ETC/config.toml" "$VAR/config.good"
        echo 'this is = not [ valid toml' >"$ETC/config.toml"
        if fetch; then fail "getmail reported success although deliver exited 75"; fi
        grep -q "error (75" "$VAR/getmail.out" || fail "getmail did not report exit 75: $(cat "$VAR/getmail.out")"
        echo "   getmail: $(grep -m1 'error (75' "$VAR/getmail.out" | sed 's/^ *//' | cut -c1-100)"
        [ "$(inbox)" = 1 ] || fail "the mail left the IMAP mailbox after exit 75"
        [ "$(status | python3 -c 'import json,sys; print(json.load(sys.stdin)["turns"])')" = "$((moveno - 1))" ] ||
            fail "the move was applied although deliver exited 75"
        sleep 1
        [ "$(count carol)" = "$before_c" ] && [ "$(count dave)" = "$before_d" ] || fail "a reply was sent on exit 75"
        cp -p "$VAR/config.good" "$ETC/config.toml"
        echo "   fixed; the next fetch handles it"
        arrive_and_fetch 1
        fetch || fail "a second getmail run failed: $(cat "$VAR/getmail.out")"
    else
        arrive_and_fetch 1
    fi
    if [ "$(field "$(status)" status)" = in_progress ]; then
        for p in carol dave; do
            N[$p]=$((N[$p] + 1))
        done
        expect carol "${N[carol]}" ".*(Board 101|101)"
        expect dave "${N[dave]}" ".*(Board 101|101)"
    else
        # The last turn: the final board at once; the robot's review from the next
        # flush (the package's timer runs it every 5 minutes), to each player.
        as_svc "$BIN" flush --config "$ETC/config.toml" -v | sed 's/^/   flush: /'
        for p in carol dave; do
            N[$p]=$((N[$p] + 2))
            expect_end "$p" "${N[$p]}"
        done
    fi
    # A forced pass the server played itself can add a mail: count what arrived.
    sleep 0.2
    N[carol]=$(count carol) N[dave]=$(count dave)
done
s=$(status)
winner=$(field "$s" winner)
[ "$(field "$s" status)" = won ] || fail "the game ended as $s"
echo "   game 101: $(field "$s" turns) turns, won by $winner ($(field "$s" end_reason)); mails: carol ${N[carol]}, dave ${N[dave]}"
echo "   each player's last two mails: the final board saying who won, and the robot's review"
[ "$(inbox)" = 0 ] || fail "the IMAP mailbox still holds $(inbox) mails"
dups=$(find /home/carol/Maildir/new /home/carol/Maildir/cur -type f -exec grep -h '^Message-ID:' {} + | sort | uniq -d | wc -l)
[ "$dups" = 0 ] || fail "carol got $dups replies twice"

# ---------------------------------------------------------------- a wrong password
say "a wrong SMTP password: check-config says so, the log says so, the reply waits"
write_config "wrong-$PASSWORD"
if as_svc "$BIN" check-config --test-smtp --config "$ETC/config.toml" >"$VAR/check"; then
    fail "check-config --test-smtp passed with a wrong password"
fi
grep -q "problem: smtp login test: SMTP: the server refused the login" "$VAR/check" ||
    fail "check-config with a wrong password: $(cat "$VAR/check")"
grep -q "$PASSWORD" "$VAR/check" && fail "check-config printed the password"
echo "   check-config: $(grep -m1 'problem: smtp login' "$VAR/check" | cut -c1-120)..."
send carol "yinsh help"
arrive_and_fetch 1
wait_for "the log's refused login line" "log_has refused.the.login" 1
grep -q "$PASSWORD" "$GAMES/log/yinsh-pbem.log" && fail "the log holds the password"
echo "   log: $(grep 'refused the login' "$GAMES/log/yinsh-pbem.log" | tail -n 1 | sed 's/.*kept in the spool: [^ ]*: //' | cut -c1-150)..."
sleep 1
[ "$(count carol)" = "${N[carol]}" ] || fail "carol got a reply although the login failed"
write_config
as_svc "$BIN" flush --config "$ETC/config.toml" -v | sed 's/^/   flush: /'
N[carol]=$((N[carol] + 1))
expect carol "${N[carol]}" "."
as_svc "$BIN" flush --config "$ETC/config.toml" -v | grep -q "0 sent" || true
sleep 1
[ "$(count carol)" = "${N[carol]}" ] || fail "the help reply was sent twice"

say "summary"
for u in "${PLAYERS[@]}"; do echo "   $u: $(count "$u") mails in ~/Maildir"; done
echo "   Postfix log: $(grep -c 'status=sent' "$MAILLOG") delivered; $(grep -c 'sasl_username=' "$MAILLOG") logins on submission"
