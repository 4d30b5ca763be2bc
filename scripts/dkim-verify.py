#!/usr/bin/env python3
"""Verifies the DKIM signature of mails with dkimpy, an independent verifier (the
tests of src/mail/dkim.rs and scripts/e2e-postfix.sh use it).

    dkim-verify.py NAME RECORD MAIL...

NAME is the record's DNS name (`<selector>._domainkey.<domain>`), RECORD its TXT
text (`v=DKIM1; k=ed25519; p=...`, the quoted pieces check-config prints may be
given joined): the key is given directly, no DNS is asked. A mail with LF line ends
(as local submission takes it) is read with CRLF, as it travels. Prints `PASS <file>` or
`FAIL <file>: <why>` for each mail; exits 0 when all pass, 1 otherwise.
"""
import re
import sys

import dkim


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    name, record = sys.argv[1].rstrip(".").lower(), sys.argv[2]
    asked = []

    def dns(qname, timeout=5):
        q = qname.decode() if isinstance(qname, bytes) else qname
        asked.append(q)
        return record.encode() if q.rstrip(".").lower() == name else None

    failed = 0
    for path in sys.argv[3:]:
        with open(path, "rb") as f:
            msg = re.sub(rb"(?<!\r)\n", b"\r\n", f.read())
        asked.clear()
        try:
            ok = dkim.verify(msg, dnsfunc=dns)
            why = "" if ok else f"signature does not verify (records asked: {asked})"
        except Exception as e:  # dkimpy raises on malformed signatures
            ok, why = False, f"{type(e).__name__}: {e}"
        if ok:
            print(f"PASS {path}")
        else:
            failed += 1
            print(f"FAIL {path}: {why}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
