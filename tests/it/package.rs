//! The Debian package's inputs (`[package.metadata.deb]`, `debian/`): the committed
//! man pages and completions match what the binary generates now, every asset the
//! package names exists, the packaged config passes `check-config`, and
//! `check-config --test-smtp` says clearly when the relay cannot be used.
//! Building, installing and purging the package is `scripts/e2e-deb.sh`.

use std::path::{Path, PathBuf};

use crate::support::bin;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir`, as paths relative to it, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path.strip_prefix(dir).expect("prefix").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_committed_man_pages_and_completions_are_up_to_date() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = bin::command()
        .arg("generate-package-files")
        .arg(tmp.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let committed = root().join("debian/generated");
    let fresh = files(tmp.path());
    assert!(
        fresh.iter().any(|p| p.ends_with("yinsh-pbem-deliver.1"))
            && fresh.iter().any(|p| p.ends_with("_yinsh-pbem")),
        "{fresh:?}"
    );
    assert_eq!(
        files(&committed),
        fresh,
        "debian/generated/ is stale: run `cargo run -- generate-package-files debian/generated` \
         (after removing the folder) and commit it"
    );
    for rel in &fresh {
        let want = std::fs::read(tmp.path().join(rel)).expect("read fresh");
        let have = std::fs::read(committed.join(rel)).expect("read committed");
        assert!(
            want == have,
            "debian/generated/{} is stale: run `cargo run -- generate-package-files \
             debian/generated` and commit it",
            rel.display()
        );
    }
}

#[test]
fn every_asset_the_package_names_exists() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("toml");
    let deb = &manifest["package"]["metadata"]["deb"];
    let assets = deb["assets"].as_array().expect("assets");
    assert!(assets.len() >= 8, "{assets:?}");
    for asset in assets {
        let source = asset[0].as_str().expect("source");
        if source.starts_with("target/") {
            continue; // built by cargo deb
        }
        let (dir, pattern) = source.rsplit_once('/').unwrap_or((".", source));
        let matches = match pattern.strip_prefix('*') {
            Some(suffix) => std::fs::read_dir(root().join(dir))
                .expect(dir)
                .filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(suffix))
                .count(),
            None => usize::from(root().join(source).is_file()),
        };
        assert!(matches > 0, "the package asset {source} matches no file");
    }
    let scripts = root().join(deb["maintainer-scripts"].as_str().expect("scripts"));
    for script in ["postinst", "prerm", "postrm"] {
        let text = std::fs::read_to_string(scripts.join(script)).expect(script);
        // cargo-deb runs no debhelper: a #DEBHELPER# token would stay in the package
        // unexpanded (lintian: maintainer-script-has-unexpanded-debhelper-token).
        assert!(!text.contains("#DEBHELPER#") && text.starts_with("#!/bin/sh"));
    }
}

#[test]
fn the_packaged_config_passes_check_config() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = bin::command()
        .args(["check-config", "--config"])
        .arg(root().join("debian/config.toml"))
        .arg("--home")
        .arg(tmp.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("no problems found"), "{text}");
    assert!(text.contains("outbox folder"), "{text}");
}

fn check_smtp(url: &str, ca: Option<&Path>) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut cmd = bin::command();
    let password = tmp.path().join("password");
    std::fs::write(&password, "s3cret\n").expect("write");
    cmd.args(["check-config", "--test-smtp", "--smtp", url, "--home"])
        .arg(tmp.path());
    if url.contains("al@") {
        cmd.arg("--smtp-password-file").arg(&password);
    }
    if let Some(ca) = ca {
        cmd.env("YINSH_PBEM_SMTP_CA_FILE", ca);
    }
    let out = cmd.output().expect("run");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_config_test_smtp_names_an_unreachable_relay_and_a_bad_ca_file() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    }; // closed again: connections are refused
    let url = format!("smtp://al@127.0.0.1:{port}?tls=required");
    let (code, text) = check_smtp(&url, None);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("problem: smtp login test: SMTP:"), "{text}");
    assert!(!text.contains("s3cret"), "{text}");

    let tmp = tempfile::tempdir().expect("tempdir");
    let ca = tmp.path().join("ca.pem");
    std::fs::write(&ca, "not a certificate").expect("write");
    let (code, text) = check_smtp(&url, Some(&ca));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("holds no PEM certificate"), "{text}");
    assert!(
        text.contains(&format!("trusting the CA file `{}`", ca.display())),
        "{text}"
    );

    let (code, text) = check_smtp(&format!("smtp://127.0.0.1:{port}"), Some(&ca));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("a CA file is set but the URL uses no TLS"),
        "{text}"
    );
}

#[test]
fn check_config_test_smtp_is_not_run_for_other_transports() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = bin::command()
        .args(["check-config", "--test-smtp", "--home"])
        .arg(tmp.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("smtp login test:    not run (outbox folder"),
        "{text}"
    );
}

/// Issue 48: every manual page has an EXIT STATUS; the server's pages say where
/// the configuration, the environment and the files are; `yinsh-pbem.toml(5)` names
/// every key of the config file, and every key `debian/config.toml` names.
#[test]
fn the_man_pages_have_exit_status_environment_files_and_every_config_key() {
    let man = root().join("debian/generated/man");
    let page = |name: &str| std::fs::read_to_string(man.join(name)).expect(name);
    for entry in std::fs::read_dir(&man).expect("man") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".1") {
            assert!(text.contains(".SH \"EXIT STATUS\""), "{name}");
            assert!(text.contains("yinsh\\-pbem.toml\\fR(5)"), "{name}");
        }
    }
    for name in [
        "yinsh-pbem.1",
        "yinsh-pbem-deliver.1",
        "yinsh-pbem-flush.1",
        "yinsh-pbem-tick.1",
        "yinsh-pbem-check-config.1",
    ] {
        let text = page(name);
        for section in [".SH CONFIGURATION", ".SH ENVIRONMENT", ".SH FILES"] {
            assert!(text.contains(section), "{name} lacks {section}");
        }
        assert!(text.contains("YINSH_PBEM_SMTP_CA_FILE"), "{name}");
    }
    let deliver = page("yinsh-pbem-deliver.1");
    assert!(
        deliver.contains(".TP\n\\fB75\\fR\nEX_TEMPFAIL"),
        "{deliver}"
    );
    for tool in ["yinsh-pbem-perft.1", "yinsh-pbem-render.1"] {
        assert!(!page(tool).contains(".SH ENVIRONMENT"), "{tool}");
    }

    let config = page("yinsh-pbem.toml.5");
    assert!(config.starts_with(".ie") && config.contains(".TH yinsh-pbem.toml 5"));
    let packaged = std::fs::read_to_string(root().join("debian/config.toml")).expect("config");
    let mut section = "TOP LEVEL".to_string();
    let mut keys = 0;
    for line in packaged.lines() {
        let line = line.trim_start_matches('#').trim();
        if line.starts_with('[') && line.ends_with(']') {
            section = line.to_string();
            continue;
        }
        let Some((key, _)) = line.split_once(" = ") else {
            continue;
        };
        if !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            continue;
        }
        keys += 1;
        // The key's entry sits under its own table's heading.
        let heading = format!(".SH \"{section}\"\n");
        let heading_bare = format!(".SH {section}\n");
        let start = config
            .find(&heading)
            .or_else(|| config.find(&heading_bare))
            .unwrap_or_else(|| panic!("yinsh-pbem.toml.5 has no section {section}"));
        let end = config[start + 1..]
            .find(".SH ")
            .map_or(config.len(), |e| start + 1 + e);
        let entry = format!("\\fB{key}\\fR");
        assert!(
            config[start..end].contains(&entry),
            "yinsh-pbem.toml.5 lacks {key} under {section}"
        );
    }
    assert!(keys >= 20, "{keys} keys in debian/config.toml");
}
