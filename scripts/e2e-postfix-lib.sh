# Sourced by scripts/e2e-postfix.sh and scripts/e2e-mailbox.sh: Postfix taken over for a
# test and given back. postfix_save DIR copies the Postfix files the tests change into
# DIR (a file that does not exist is noted as DIR/<name>.absent); postfix_give_back DIR
# stops Postfix, empties its queue and puts the files back as they were.
# release_binary sets BIN_SRC to the yinsh-pbem to test: $YINSH_PBEM_BIN, else the
# release build of $ROOT (built first); it calls the caller's `fail` when there is none.

POSTFIX_FILES=(/etc/postfix/main.cf /etc/postfix/master.cf /etc/aliases /etc/mailname)

postfix_save() {
    mkdir -p "$1"
    for f in "${POSTFIX_FILES[@]}"; do
        if [ -e "$f" ]; then cp -p "$f" "$1/"; else touch "$1/$(basename "$f").absent"; fi
    done
}

postfix_give_back() {
    if command -v postfix >/dev/null 2>&1; then
        postfix stop >/dev/null 2>&1
        postsuper -d ALL >/dev/null 2>&1
    fi
    [ -d "$1" ] || return 0
    for f in "${POSTFIX_FILES[@]}"; do
        b="$1/$(basename "$f")"
        if [ -e "$b" ]; then
            cp -p "$b" "$f"
        elif [ -e "$b.absent" ]; then
            rm -f "$f"
        fi
    done
}

release_binary() {
    if [ -n "${YINSH_PBEM_BIN:-}" ]; then
        BIN_SRC="$YINSH_PBEM_BIN"
    else
        say "cargo build --release"
        (cd "$ROOT" && cargo build --release --quiet --bin yinsh-pbem)
        BIN_SRC="$ROOT/target/release/yinsh-pbem"
    fi
    [ -x "$BIN_SRC" ] || fail "no binary at $BIN_SRC"
}
