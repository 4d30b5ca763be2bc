#!/usr/bin/env bash
# End-to-end test of the Debian package: build it with `cargo deb`, install it with
# dpkg, use it as an operator would, remove it, purge it.
#
# As root on a Debian-like machine with cargo-deb (`cargo install --locked cargo-deb`):
#   - `cargo deb`; lintian finds no error or warning (scripts/lintian-check.sh); the
#     package holds the binary, the conffiles (config, logrotate), the units (in
#     /usr/lib/systemd/system), the man pages (1 and 5), the completions, the getmail, alert
#     rules and hardening examples;
#   - `dpkg -i`: the system user yinsh-pbem and /var/lib/yinsh-pbem exist, the config is
#     root:yinsh-pbem 0640, the flush, tick and status timers are enabled;
#   - `yinsh-pbem check-config` passes with the installed config, as the system user;
#   - a few mails through the installed binary as the system user (runuser): two signups,
#     each address confirmed by replying to its verify mail, a challenge, a move; then
#     the ExecStart lines of the installed flush and tick units, run as their User=;
#     the same lines failing (the home closed to the user) print the reason with a
#     level on stderr; then in a container booted by systemd-nspawn over an overlay of
#     this machine's root, the flush unit started for real, made to fail, and its
#     reason read back with `journalctl -u yinsh-pbem-flush -p err`; the
#     status unit's line writes the Prometheus file (promtool checks it when there);
#   - backup and restore as the system user, `deliver --dry-run` writing nothing;
#   - logrotate accepts the package's file (when logrotate is there);
#   - `systemd-analyze security --offline=true` scores each service no worse than
#     the figures of docs/operations.md;
#   - `systemd-analyze verify` accepts the units (when systemd-analyze is there);
#   - `dpkg -r` keeps the config and the games; `dpkg --purge` removes them, the unit
#     links and the binary, and keeps the system user (removed by this script after).
# Exit 0 on success; exit 0 with "SKIPPED" where it cannot run (not root, no dpkg, no
# cargo-deb, the package installed here by someone else). Under CI a missing cargo-deb
# is a failure.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PKG=yinsh-pbem
SVC=yinsh-pbem
ETC=/etc/yinsh-pbem
VAR=/var/lib/yinsh-pbem
GAMES="$VAR/games"
MARK=/var/backups/yinsh-e2e-deb      # says this script installed the package

say() { printf '== %s\n' "$*"; }
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}
skip() {
    echo "SKIPPED e2e-deb: $*"
    exit 0
}

[ "$(id -u)" = 0 ] || skip "must run as root (it installs a package)"
command -v dpkg >/dev/null 2>&1 || skip "no dpkg on this machine (Debian/Ubuntu only)"
if ! cargo deb --version >/dev/null 2>&1; then
    [ -n "${CI:-}" ] && fail "cargo-deb is missing (.ci/run installs it: cargo install --locked cargo-deb)"
    skip "cargo-deb is missing: cargo install --locked cargo-deb"
fi

installed() { dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q "installed"; }
known() { dpkg-query -W -f='${Status}' "$PKG" >/dev/null 2>&1; }

# The container of the journal check: powered off, its process waited for, the overlay
# unmounted (also when the script fails half-way).
stop_container() {
    if [ -f "$MARK/nspawn.pid" ]; then
        local pid leader
        pid=$(cat "$MARK/nspawn.pid")
        leader=$(pgrep -P "$pid" | head -n 1 || true)
        if [ -n "$leader" ]; then
            nsenter -t "$leader" -a systemctl poweroff >/dev/null 2>&1 || true
        fi
        for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$pid" 2>/dev/null || true   # gone already: nothing to kill
        rm -f "$MARK/nspawn.pid"
    fi
    if [ -f "$MARK/overlay-mounted" ]; then
        umount "$MARK/nspawn/root" 2>/dev/null || umount -l "$MARK/nspawn/root"
        rm -f "$MARK/overlay-mounted"
    fi
    rm -rf "$MARK/nspawn"
    return 0
}

cleanup() {
    stop_container
    if known; then dpkg --purge "$PKG" >/dev/null 2>&1; fi
    if [ -f "$MARK/user-created" ] && id "$SVC" >/dev/null 2>&1; then
        deluser --system "$SVC" >/dev/null 2>&1 || userdel "$SVC" >/dev/null 2>&1
    fi
    rm -rf "$MARK" "$ETC" "$VAR"
    return 0
}
on_exit() {
    local rc=$?
    set +e
    say "cleaning up"
    cleanup
    if [ "$rc" = 0 ]; then echo "e2e-deb: PASSED"; else echo "e2e-deb: FAILED (exit $rc)"; fi
    exit "$rc"
}

if [ -d "$MARK" ]; then
    say "undoing what an interrupted earlier run left"
    (set +e; cleanup)
fi
known && skip "the package $PKG is installed here (not by this test); it would be purged"
if id "$SVC" >/dev/null 2>&1; then
    skip "a user $SVC exists here (not made by this test)"
fi
mkdir -p "$MARK"
touch "$MARK/user-created"
trap on_exit EXIT
trap 'exit 143' TERM INT HUP

# ---------------------------------------------------------------- build
say "cargo deb --fast --strip (lighter compression than a release package)"
start=$(date +%s)
DEB=$(cd "$ROOT" && cargo deb --fast --strip --quiet 2>"$MARK/cargo-deb.err" | tail -n 1) ||
    fail "cargo deb failed: $(cat "$MARK/cargo-deb.err")"
[ -f "$DEB" ] || fail "cargo deb printed no package path (got '$DEB')"
echo "   $DEB ($(du -h "$DEB" | cut -f1), $(($(date +%s) - start)) s)"
"$ROOT/scripts/lintian-check.sh" "$DEB" || fail "lintian (above)"

contents=$(dpkg-deb -c "$DEB" | awk '{print $6}')
UNITS_DIR=/usr/lib/systemd/system
for f in ./usr/bin/yinsh-pbem ./etc/yinsh-pbem/config.toml ./etc/logrotate.d/yinsh-pbem \
    .$UNITS_DIR/yinsh-pbem-flush.service .$UNITS_DIR/yinsh-pbem-flush.timer \
    .$UNITS_DIR/yinsh-pbem-tick.service .$UNITS_DIR/yinsh-pbem-tick.timer \
    .$UNITS_DIR/yinsh-pbem-status.service .$UNITS_DIR/yinsh-pbem-status.timer \
    .$UNITS_DIR/yinsh-pbem-fetch.service ./usr/share/doc/yinsh-pbem/examples/getmailrc \
    ./usr/share/doc/yinsh-pbem/examples/prometheus-alerts.yml \
    ./usr/share/doc/yinsh-pbem/examples/hardening-without-sendmail.conf \
    ./usr/share/bash-completion/completions/yinsh-pbem ./usr/share/zsh/vendor-completions/_yinsh-pbem \
    ./usr/share/fish/vendor_completions.d/yinsh-pbem.fish; do
    grep -qx -- "$f" <<<"$contents" || fail "the package lacks $f"
done
grep -Eq '^\./usr/share/man/man1/yinsh-pbem-deliver\.1(\.gz)?$' <<<"$contents" ||
    fail "the package lacks the man page yinsh-pbem-deliver.1"
grep -Eq '^\./usr/share/man/man5/yinsh-pbem\.toml\.5(\.gz)?$' <<<"$contents" ||
    fail "the package lacks the man page yinsh-pbem.toml.5"
conffiles=$(dpkg-deb -I "$DEB" conffiles | sort | tr '\n' ' ')
[ "$conffiles" = "/etc/logrotate.d/yinsh-pbem $ETC/config.toml " ] ||
    fail "conffiles are '$conffiles', expected /etc/logrotate.d/yinsh-pbem and $ETC/config.toml"
echo "   $(wc -l <<<"$contents") entries; conffiles $conffiles"

# ---------------------------------------------------------------- install
say "dpkg -i"
dpkg -i "$DEB" >/dev/null
installed || fail "dpkg -i did not install $PKG"
id "$SVC" >/dev/null || fail "no system user $SVC after install"
[ "$(stat -c %U:%a "$VAR")" = "$SVC:750" ] || fail "$VAR is $(stat -c %U:%a "$VAR"), expected $SVC:750"
[ "$(stat -c %U:%G:%a "$ETC/config.toml")" = "root:$SVC:640" ] ||
    fail "$ETC/config.toml is $(stat -c %U:%G:%a "$ETC/config.toml"), expected root:$SVC:640"
for t in flush tick status; do
    [ -L "/etc/systemd/system/timers.target.wants/yinsh-pbem-$t.timer" ] ||
        fail "yinsh-pbem-$t.timer is not enabled"
done
[ -e /etc/systemd/system/timers.target.wants/yinsh-pbem-fetch.timer ] &&
    fail "yinsh-pbem-fetch.timer is enabled, but it needs a getmailrc first"
echo "   user $SVC (home $(getent passwd "$SVC" | cut -d: -f6)), timers flush, tick and status enabled"

as_svc() { runuser -u "$SVC" -- "$@"; }

say "check-config with the installed config, as $SVC"
as_svc yinsh-pbem check-config --config "$ETC/config.toml" >"$MARK/check" ||
    fail "check-config failed: $(cat "$MARK/check")"
grep -q "no problems found" "$MARK/check" || fail "check-config: $(cat "$MARK/check")"
sed 's/^/   /' "$MARK/check" | grep -E "config file|home:|transport:"

# ---------------------------------------------------------------- a few mails
SEQ=0
# deliver FROM SUBJECT: one mail from FROM@example.org through the installed binary.
deliver() {
    SEQ=$((SEQ + 1))
    printf 'From: %s <%s@example.org>\nTo: yinsh@localhost\nSubject: %s\nDate: %s\nMessage-ID: <deb-%s-%s@example.org>\n\n\n' \
        "$1" "$1" "$2" "$(date -R)" "$SEQ" "$$" |
        as_svc yinsh-pbem deliver --config "$ETC/config.toml" --sender="$1@example.org" ||
        fail "deliver exited $? for '$2'"
}
# newest_subject USER: the Subject of the newest reply to USER in the outbox.
newest_subject() {
    local f
    f=$(grep -l "^To: .*$1@example.org" "$GAMES"/outbox/*.eml | xargs ls -t | head -n 1)
    grep -m1 '^Subject:' "$f" | tr -d '\r' | sed 's/^Subject: //'
}

say "signups confirmed by replying to the verify mail, a challenge, a move (as $SVC)"
for who in alice bob; do
    deliver "$who" "signup $who ${who:0:1}pw"
    verify=$(newest_subject "$who")
    [[ "$verify" =~ ^verify\ $who\ [A-Z0-9]{10}$ ]] || fail "$who's newest reply is '$verify', not a verify mail"
    deliver "$who" "Re: $verify"
    [[ "$(newest_subject "$who")" == "Address confirmed for $who"* ]] || fail "$who: $(newest_subject "$who")"
done
deliver alice "yinsh challenge alice bob"
[[ "$(newest_subject bob)" == "New Yinsh Board 101 alice"* ]] || fail "bob: $(newest_subject bob)"
deliver alice "yinsh move 101 alice apw e5#1"
[[ "$(newest_subject bob)" == *"Yinsh Board 101"* ]] || fail "bob: $(newest_subject bob)"
grep -q '"text": "e5"' "$GAMES/boards/101.json" || fail "the move e5 is not in the game file"
foreign=$(find "$VAR" ! -user "$SVC" | head -n 3)
[ -z "$foreign" ] || fail "files in $VAR not owned by $SVC: $foreign"
echo "   $(ls "$GAMES/outbox" | wc -l) replies in $GAMES/outbox; every file in $VAR owned by $SVC"

say "the installed man pages"
page() { zcat -f "$1"* 2>/dev/null; }
page /usr/share/man/man1/yinsh-pbem-deliver.1 | grep -q '^\.SH "EXIT STATUS"' ||
    fail "yinsh-pbem-deliver(1) has no EXIT STATUS"
page /usr/share/man/man1/yinsh-pbem.1 | grep -q '^\.SH ENVIRONMENT' ||
    fail "yinsh-pbem(1) has no ENVIRONMENT"
page /usr/share/man/man5/yinsh-pbem.toml.5 | grep -q 'password_file' ||
    fail "yinsh-pbem.toml(5) does not name [transport] password_file"
echo "   deliver(1) EXIT STATUS, yinsh-pbem(1) ENVIRONMENT, yinsh-pbem.toml(5) keys"

say "the installed units' commands, as their User="
for t in flush tick; do
    unit="$UNITS_DIR/yinsh-pbem-$t.service"
    user=$(sed -n 's/^User=//p' "$unit")
    cmd=$(sed -n 's/^ExecStart=//p' "$unit")
    [ "$user" = "$SVC" ] || fail "$unit runs as '$user'"
    # shellcheck disable=SC2086 # the unit's command line, split as systemd splits it
    runuser -u "$user" -- $cmd || fail "$unit: '$cmd' exited $?"
    echo "   yinsh-pbem-$t.service: $cmd: exit 0"
done

say "a failing run's reason on stderr, with a level (what the journal shows)"
# Without systemd as PID 1 there is no journal here: the unit's ExecStart runs as its
# User= with stderr captured, once as a terminal sees it and once with JOURNAL_STREAM
# set as systemd sets it for a unit whose stderr is the journal (level <3>: err).
chmod 000 "$GAMES"
for t in flush tick; do
    unit="$UNITS_DIR/yinsh-pbem-$t.service"
    cmd=$(sed -n 's/^ExecStart=//p' "$unit")
    rc=0
    # shellcheck disable=SC2086
    runuser -u "$SVC" -- $cmd 2>"$MARK/err" || rc=$?
    [ "$rc" = 75 ] || fail "$t with its home closed exited $rc, not 75"
    grep -q "^error: internal failure, exit 75: .*$GAMES" "$MARK/err" ||
        fail "$t's stderr does not say why: $(cat "$MARK/err")"
    rc=0
    # shellcheck disable=SC2086
    runuser -u "$SVC" -- env JOURNAL_STREAM=8:1 $cmd 2>"$MARK/err" || rc=$?
    grep -q "^<3>internal failure, exit 75: " "$MARK/err" ||
        fail "$t's stderr for the journal has no level: $(cat "$MARK/err")"
    echo "   yinsh-pbem-$t.service: exit $rc, $(head -c 100 "$MARK/err")"
done
chmod 750 "$GAMES"

say "journalctl -u yinsh-pbem-flush under a booted systemd (systemd-nspawn)"
# The machine itself has no systemd as PID 1: a container booted with systemd-nspawn
# over an overlay of this machine's root (the package installed above is in it; what the
# container changes stays in the overlay's upper folder) runs the units for real, and
# the journal is read with journalctl. Under CI a missing systemd-nspawn is a failure.
if ! command -v systemd-nspawn >/dev/null 2>&1; then
    [ -n "${CI:-}" ] && fail "systemd-nspawn is missing (.ci/run installs systemd-container)"
    echo "   SKIPPED: no systemd-nspawn here (apt-get install systemd-container): the journal is not read"
else
    NS="$MARK/nspawn"
    mkdir -p "$NS/up" "$NS/work" "$NS/root"
    mount -t overlay overlay -o "lowerdir=/,upperdir=$NS/up,workdir=$NS/work" "$NS/root" ||
        fail "cannot mount an overlay of / for the container"
    touch "$MARK/overlay-mounted"
    systemd-nspawn -D "$NS/root" --register=no --keep-unit --boot --console=passive \
        --private-network --quiet >"$MARK/nspawn.log" 2>&1 &
    echo $! >"$MARK/nspawn.pid"
    leader="" state=""
    for _ in $(seq 1 120); do
        leader=$(pgrep -P "$(cat "$MARK/nspawn.pid")" | head -n 1 || true)
        if [ -n "$leader" ]; then
            state=$(nsenter -t "$leader" -a systemctl is-system-running 2>/dev/null || true)
            case "$state" in running | degraded) break ;; esac
        fi
        sleep 0.5
    done
    case "$state" in
    running | degraded) ;;
    *) fail "the container did not boot (state '$state'): $(tail -n 5 "$MARK/nspawn.log")" ;;
    esac
    in_ct() { nsenter -t "$leader" -a "$@"; }
    echo "   container booted ($state)"
    in_ct systemctl start yinsh-pbem-flush.service ||
        fail "yinsh-pbem-flush.service failed in the container: $(in_ct journalctl -u yinsh-pbem-flush.service --no-pager | tail -n 5)"
    in_ct chmod 000 "$GAMES"
    in_ct systemctl start yinsh-pbem-flush.service && fail "the flush unit with its home closed did not fail"
    in_ct systemctl show -p Result --value yinsh-pbem-flush.service >"$MARK/result"
    in_ct journalctl -u yinsh-pbem-flush.service -p err --no-pager -o cat >"$MARK/journal" 2>&1 || true
    grep -q "internal failure, exit 75: .*$GAMES" "$MARK/journal" ||
        fail "journalctl -u yinsh-pbem-flush -p err does not say why the flush failed: $(cat "$MARK/journal")"
    echo "   result $(cat "$MARK/result"); journalctl -u yinsh-pbem-flush -p err: $(grep -m1 'internal failure' "$MARK/journal" | head -c 120)"
    stop_container
fi

say "the status unit's command writes the Prometheus file"
TEXTFILE=/var/lib/prometheus/node-exporter
made=()   # the folders this test makes, removed after
for d in /var/lib/prometheus "$TEXTFILE"; do
    [ -d "$d" ] || { mkdir "$d" && made=("$d" "${made[@]}"); }
done
cmd=$(sed -n 's/^ExecStart=//p' "$UNITS_DIR/yinsh-pbem-status.service")
# shellcheck disable=SC2086
$cmd || fail "the status unit's '$cmd' exited $?"
prom="$TEXTFILE/yinsh-pbem.prom"
grep -q '^yinsh_pbem_mails_total [1-9]' "$prom" || fail "$prom counts no mail: $(head -c 300 "$prom")"
grep -q '^yinsh_pbem_boards_total 1$' "$prom" || fail "$prom: boards_total is not 1"
if command -v promtool >/dev/null 2>&1; then
    promtool check metrics <"$prom" || fail "promtool check metrics rejects $prom"
    promtool check rules /usr/share/doc/yinsh-pbem/examples/prometheus-alerts.yml >/dev/null ||
        fail "promtool check rules rejects the packaged alert rules"
    echo "   $prom: $(grep -c '^yinsh_pbem_' "$prom") samples, promtool accepts it and the rules"
else
    echo "   $prom: $(grep -c '^yinsh_pbem_' "$prom") samples (no promtool here)"
fi
rm -f "$prom"
for d in "${made[@]}"; do rmdir "$d"; done

say "backup and restore as $SVC; deliver --dry-run writes nothing"
as_svc yinsh-pbem backup --config "$ETC/config.toml" "$VAR/backup.tar" >/dev/null ||
    fail "backup failed"
as_svc yinsh-pbem restore --config "$ETC/config.toml" --home "$VAR/restored" "$VAR/backup.tar" >/dev/null ||
    fail "restore failed"
cmp -s "$GAMES/boards/101.json" "$VAR/restored/boards/101.json" || fail "the restored board 101 differs"
cmp -s "$GAMES/reply-key" "$VAR/restored/reply-key" || fail "the restored reply-key differs"
rm -rf "$VAR/restored" "$VAR/backup.tar"
sums() { find "$GAMES" -type f ! -name lock ! -name counters.lock -exec sha256sum {} + | sort; }
sums >"$MARK/before"
printf 'From: bob <bob@example.org>\nTo: yinsh@localhost\nSubject: yinsh move 101 bob bpw e6\nMessage-ID: <deb-dry-%s@example.org>\n\n\n' "$$" |
    as_svc yinsh-pbem deliver --dry-run --config "$ETC/config.toml" >"$MARK/dry" || fail "deliver --dry-run exited $?"
sums >"$MARK/after"
cmp -s "$MARK/before" "$MARK/after" || fail "deliver --dry-run changed the home: $(diff "$MARK/before" "$MARK/after")"
grep -q '^would change: boards/101.json' "$MARK/dry" || fail "the dry run does not show the move: $(cat "$MARK/dry")"
echo "   backup restored file for file; the dry run showed $(grep -c '^would ' "$MARK/dry") effects and wrote nothing"

if command -v logrotate >/dev/null 2>&1; then
    say "logrotate accepts /etc/logrotate.d/yinsh-pbem"
    logrotate -d /etc/logrotate.d/yinsh-pbem >"$MARK/logrotate" 2>&1 ||
        fail "logrotate -d: $(cat "$MARK/logrotate")"
    grep -qi "error" "$MARK/logrotate" && fail "logrotate -d: $(cat "$MARK/logrotate")"
    echo "   $(grep -c 'considering log' "$MARK/logrotate") log considered"
fi

if command -v systemd-analyze >/dev/null 2>&1; then
    say "systemd-analyze verify"
    units=("$UNITS_DIR"/yinsh-pbem-{flush,tick,status}.{service,timer})
    if command -v getmail >/dev/null 2>&1; then
        units+=("$UNITS_DIR"/yinsh-pbem-fetch.{service,timer})
    else
        echo "   (getmail is not installed: yinsh-pbem-fetch.* not verified)"
    fi
    # Without systemd as PID 1 it still checks the files; a warning about the
    # missing manager is no failure, a word about our units is.
    # Documentation=man:... is checked where man(1) is installed.
    man_check=yes
    command -v man >/dev/null 2>&1 || man_check=no
    systemd-analyze verify --man="$man_check" "${units[@]}" >"$MARK/verify" 2>&1 || true
    if grep -i "yinsh-pbem" "$MARK/verify"; then
        fail "systemd-analyze verify complains about the units"
    fi
    echo "   ${#units[@]} units accepted"

    say "systemd-analyze security --offline=true: no worse than docs/operations.md says"
    # The figures, as the table of docs/operations.md "Hardening" gives them.
    for pair in flush:5.4 tick:5.4 fetch:5.4 status:0.9; do
        u=${pair%%:*} most=${pair#*:}
        score=$(systemd-analyze security --offline=true "$UNITS_DIR/yinsh-pbem-$u.service" 2>&1 |
            sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
        [ -n "$score" ] || fail "systemd-analyze security gave no score for yinsh-pbem-$u.service"
        awk -v s="$score" -v m="$most" 'BEGIN { exit !(s <= m) }' ||
            fail "yinsh-pbem-$u.service scores $score, worse than the documented $most"
        echo "   yinsh-pbem-$u.service: $score"
    done
else
    echo "   (no systemd-analyze here: the units are not verified)"
fi

# ---------------------------------------------------------------- remove, purge
say "dpkg -r: the binary and units go, the config and games stay"
dpkg -r "$PKG" >/dev/null
[ -e /usr/bin/yinsh-pbem ] && fail "/usr/bin/yinsh-pbem is still there after dpkg -r"
[ -e "$UNITS_DIR/yinsh-pbem-flush.service" ] && fail "the units are still there after dpkg -r"
[ -f "$ETC/config.toml" ] || fail "dpkg -r removed the conffile"
[ -f "$GAMES/boards/101.json" ] || fail "dpkg -r removed the games"
echo "   kept: $ETC/config.toml, $GAMES/boards/101.json"

say "dpkg --purge: config, games and unit links go, the user stays"
dpkg --purge "$PKG" >/dev/null
known && fail "dpkg still knows $PKG after purge"
for gone in "$ETC" "$VAR" /etc/systemd/system/timers.target.wants/yinsh-pbem-flush.timer \
    /etc/systemd/system/yinsh-pbem-flush.timer; do
    [ -e "$gone" ] || [ -L "$gone" ] && fail "$gone is still there after purge"
done
id "$SVC" >/dev/null || fail "purge removed the system user (Debian keeps it)"
echo "   gone: $ETC, $VAR, the timer links; kept: the user $SVC"
