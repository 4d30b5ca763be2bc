//! Unit tests of `mail::auth_results`: real headers of opendkim, opendmarc and Gmail,
//! odd syntax, the verdict.

use super::*;

/// A mail from `from` with these headers on top, as `mail::inbound` reads it
/// (without its other fields).
struct Mail {
    auth_results: Vec<AuthResults>,
    headers: AuthHeaders,
    from: Option<Address>,
}

fn mail(headers: &str, from: &str) -> Mail {
    // Unfolded header lines (a line starting with white space continues one).
    let mut unfolded: Vec<String> = Vec::new();
    for line in headers.lines() {
        match unfolded.last_mut() {
            Some(last) if line.starts_with([' ', '\t']) => last.push_str(line),
            _ => unfolded.push(line.to_string()),
        }
    }
    let values: Vec<String> = unfolded
        .iter()
        .filter_map(|h| h.strip_prefix("Authentication-Results:"))
        .map(|v| v.trim().to_string())
        .collect();
    Mail {
        auth_results: values.iter().filter_map(|v| parse_header(v)).collect(),
        headers: AuthHeaders::new(values),
        from: crate::mail::bare_address(from).parse().ok(),
    }
}

fn from_verdict(mail: &Mail, trusted: &str) -> FromAuth {
    verdict(&mail.headers, mail.from.as_ref(), trusted)
}

const ALICE: &str = "Alice <alice@example.org>";

#[test]
fn opendkim_and_opendmarc_headers_of_the_trusted_id() {
    let m = mail(
        "Authentication-Results: mail.yinsh.example; dmarc=pass (p=reject dis=none) header.from=example.org\n\
         Authentication-Results: mail.yinsh.example;\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org header.a=rsa-sha256 header.s=s1 header.b=AbCd1234;\n\tdkim-atps=neutral\n",
        ALICE,
    );
    assert_eq!(m.auth_results.len(), 2);
    assert_eq!(
        m.auth_results[1].results[0].property("header.s"),
        Some("s1")
    );
    assert_eq!(
        m.auth_results[1].results[1].method,
        Method::Other("dkim-atps".into())
    );
    assert_eq!(from_verdict(&m, "mail.yinsh.example"), FromAuth::Pass);
    assert_eq!(from_verdict(&m, "MAIL.Yinsh.Example"), FromAuth::Pass);
    let forged = mail(
        "Authentication-Results: mail.yinsh.example; dmarc=fail (p=none dis=none) header.from=example.org\n",
        ALICE,
    );
    assert_eq!(from_verdict(&forged, "mail.yinsh.example"), FromAuth::Fail);
}

#[test]
fn gmail_style_multi_line_header() {
    let m = mail(
        "ARC-Authentication-Results: i=1; mx.google.com; dmarc=fail header.from=example.org\n\
         Authentication-Results: mx.google.com;\n       dkim=pass header.i=@example.org header.s=20230601 header.b=\"Xy/z+1\";\n       spf=pass (google.com: domain of alice@example.org designates 209.85.220.41 as permitted sender) smtp.mailfrom=alice@example.org;\n       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org\n",
        ALICE,
    );
    let h = &m.auth_results[0];
    assert_eq!(h.authserv_id, "mx.google.com");
    let methods: Vec<String> = h
        .results
        .iter()
        .map(|r| format!("{}={}", r.method, r.result))
        .collect();
    assert_eq!(methods, ["dkim=pass", "spf=pass", "dmarc=pass"]);
    assert_eq!(h.results[0].property("header.b"), Some("Xy/z+1"));
    assert_eq!(
        h.results[1].property("smtp.mailfrom"),
        Some("alice@example.org")
    );
    assert_eq!(from_verdict(&m, "mx.google.com"), FromAuth::Pass);
}

#[test]
fn no_pass_and_a_failure_is_a_fail() {
    let m = mail(
        "Authentication-Results: mx.y.example; dkim=none; spf=softfail smtp.mailfrom=example.org\n",
        ALICE,
    );
    assert_eq!(from_verdict(&m, "mx.y.example"), FromAuth::Fail);
    // A pass for the sender's own domain (anyone can have one) is no pass for the From.
    let own = mail(
        "Authentication-Results: mx.y.example; dkim=pass header.d=evil.test; spf=fail smtp.mailfrom=evil.test\n",
        ALICE,
    );
    assert_eq!(from_verdict(&own, "mx.y.example"), FromAuth::Fail);
    let neutral = mail(
        "Authentication-Results: mx.y.example; dkim=neutral (no signature); spf=none; dmarc=none\n",
        ALICE,
    );
    assert_eq!(from_verdict(&neutral, "mx.y.example"), FromAuth::Unknown);
    let sub = mail(
        "Authentication-Results: mx.y.example; dkim=pass header.d=mail.example.org; spf=fail\n",
        ALICE,
    );
    assert_eq!(from_verdict(&sub, "mx.y.example"), FromAuth::Pass);
}

/// A header naming another authserv-id (written by the sender) is ignored: it
/// neither passes a forged From nor fails a genuine one.
#[test]
fn a_header_of_another_id_is_ignored() {
    let forged = mail(
        "Authentication-Results: evil.test; dmarc=pass header.from=example.org; dkim=pass header.d=example.org\n\
         Authentication-Results: mx.y.example; dmarc=fail header.from=example.org\n",
        ALICE,
    );
    assert_eq!(from_verdict(&forged, "mx.y.example"), FromAuth::Fail);
    let only_theirs = mail("Authentication-Results: evil.test; dmarc=fail\n", ALICE);
    assert_eq!(
        from_verdict(&only_theirs, "mx.y.example"),
        FromAuth::Unknown
    );
    assert_eq!(
        from_verdict(&mail("", ALICE), "mx.y.example"),
        FromAuth::Unknown
    );
    // Trusted DMARC results about another domain only (issue 45 attack 3): the mail
    // system judged another From than the one read, so no pass (it was `Unknown`,
    // which was accepted).
    for result in ["fail", "pass", "none"] {
        let other = mail(
            &format!(
                "Authentication-Results: mx.y.example; dmarc={result} header.from=evil.test\n"
            ),
            ALICE,
        );
        assert_eq!(
            from_verdict(&other, "mx.y.example"),
            FromAuth::Fail,
            "{result}"
        );
    }
    // One about the From's domain among them decides.
    let both = mail(
        "Authentication-Results: mx.y.example; dmarc=fail header.from=evil.test; dmarc=pass header.from=example.org\n",
        ALICE,
    );
    assert_eq!(from_verdict(&both, "mx.y.example"), FromAuth::Pass);
}

#[test]
fn odd_syntax_is_read_or_skipped() {
    let h = parse_header("\"mx (x).example\" 1; dkim/1 = pass reason=\"sig ok; fine\" header . d = example.org ; none; =; spf=").expect("header");
    assert_eq!(h.authserv_id, "mx (x).example");
    assert_eq!(h.results.len(), 1, "{h:?}");
    assert_eq!(h.results[0].method, Method::Dkim);
    assert_eq!(h.results[0].property("header.d"), Some("example.org"));
    assert_eq!(
        parse_header("mx.example; none").map(|h| h.results.len()),
        Some(0)
    );
    assert_eq!(parse_header(""), None);
    assert_eq!(parse_header("(only a comment); dkim=pass"), None);
    assert_eq!(parse_header("(unclosed; dkim=pass"), None);
    assert_eq!(
        parse_header(&format!("mx; {}", "dkim=pass ".repeat(500))),
        None
    );
    let many = format!("mx{}", "; spf=fail".repeat(100));
    assert_eq!(
        parse_header(&many).map(|h| h.results.len()),
        Some(MAX_RESULTS)
    );
    for text in [
        "pass",
        "fail",
        "softfail",
        "neutral",
        "none",
        "temperror",
        "permerror",
        "policy",
        "x-new",
    ] {
        let Ok(outcome) = text.parse::<Outcome>();
        assert_eq!(outcome.to_string(), text);
    }
}

/// Issue 45 attack 3: the authserv-id counts only as the mail system writes it, the
/// header's first word, bare; a quoted one or one after a comment is another's.
#[test]
fn a_quoted_or_commented_id_is_not_the_trusted_one() {
    assert_eq!(written_id("mx.y.example; dmarc=pass"), Some("mx.y.example"));
    assert_eq!(
        written_id("  mx.y.example 1 ; dkim=pass"),
        Some("mx.y.example")
    );
    assert_eq!(written_id("mx.y.example;dkim=pass"), Some("mx.y.example"));
    assert_eq!(written_id("mx.y.example"), Some("mx.y.example"));
    for odd in [
        "\"mx.y.example\"; dmarc=pass",
        "(c) mx.y.example; dmarc=pass",
        "mx.y.example(c); dmarc=pass",
        "mx.y\\.example; dmarc=pass",
        "; dmarc=pass",
        "",
    ] {
        assert_eq!(written_id(odd), None, "{odd:?}");
    }
    for forged in [
        "Authentication-Results: \"mx.y.example\"; dmarc=pass header.from=example.org\n",
        "Authentication-Results: (c) mx.y.example; dmarc=pass header.from=example.org\n",
    ] {
        let m = mail(forged, ALICE);
        assert_eq!(m.auth_results[0].authserv_id, "mx.y.example", "{forged}");
        assert_eq!(
            from_verdict(&m, "mx.y.example"),
            FromAuth::Unknown,
            "{forged}"
        );
    }
}

/// Issue 45 attack 3: every header of the trusted id is read, however many others
/// come before it; a header over `MAX_HEADER_BYTES` is left out.
#[test]
fn every_trusted_header_is_read_after_any_number_of_others() {
    let headers = "Authentication-Results: evil.test; dmarc=pass header.from=example.org\n"
        .repeat(1000)
        + "Authentication-Results: mx.y.example; dmarc=fail header.from=example.org\n";
    let m = mail(&headers, ALICE);
    assert_eq!(m.headers.len(), 1001);
    assert_eq!(from_verdict(&m, "mx.y.example"), FromAuth::Fail);
    let long = format!("mx.y.example; dmarc=fail{}", " (x)".repeat(2000));
    assert!(AuthHeaders::new([long]).is_empty());
}
