//! `yinsh-pbem generate-package-files DIR` (hidden): writes the manual pages
//! (`cli::manual`: one per subcommand, and `yinsh-pbem.toml(5)`) and the shell completions (clap_complete: bash,
//! zsh, fish) made from the command line's own definition, for the Debian package.
//! The generated files are committed under `debian/generated/`; a test
//! (`tests/it/package.rs`) regenerates them and fails when they are stale.

use std::path::Path;
use std::process::ExitCode;

use clap_complete::Shell;

/// Why the files could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {what} into {}: {source}", dir.display())]
pub struct GenerateError {
    /// Which files.
    what: &'static str,
    /// The folder.
    dir: std::path::PathBuf,
    /// Why.
    source: std::io::Error,
}

/// Writes `<out>/man/*.1`, `<out>/man/yinsh-pbem.toml.5` and `<out>/completions/{yinsh-pbem.bash,_yinsh-pbem,yinsh-pbem.fish}`.
pub fn write_package_files(cmd: clap::Command, out: &Path) -> Result<(), GenerateError> {
    let err = |what, dir: &Path| {
        let dir = dir.to_path_buf();
        move |source| GenerateError {
            what,
            dir: dir.clone(),
            source,
        }
    };
    let man = out.join("man");
    let completions = out.join("completions");
    for dir in [&man, &completions] {
        std::fs::create_dir_all(dir).map_err(err("the folder", dir))?;
    }
    let pages = err("the manual pages", &man);
    let mut top = cmd.clone().disable_help_subcommand(true);
    top.build();
    let version = top.get_version().unwrap_or_default().to_string();
    let name = top.get_name().to_string();
    for sub in top.get_subcommands().filter(|s| !s.is_hide_set()) {
        let sub_name = sub.get_name().to_string();
        let text = super::manual::page(sub.clone(), &sub_name).map_err(&pages)?;
        std::fs::write(man.join(format!("{name}-{sub_name}.1")), text).map_err(&pages)?;
    }
    let text = super::manual::page(top, &name).map_err(&pages)?;
    std::fs::write(man.join(format!("{name}.1")), text).map_err(&pages)?;
    std::fs::write(
        man.join(format!("{name}.toml.5")),
        super::manual::config_page(&format!("{name} {version}")),
    )
    .map_err(&pages)?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let mut cmd = cmd.clone();
        let file = match shell {
            Shell::Bash => format!("{name}.bash"),
            Shell::Zsh => format!("_{name}"),
            _ => format!("{name}.fish"),
        };
        let mut text = Vec::new();
        clap_complete::generate(shell, &mut cmd, name.clone(), &mut text);
        std::fs::write(completions.join(file), text)
            .map_err(err("the shell completions", &completions))?;
    }
    Ok(())
}

/// The command: exit 0, or 1 with the reason on stderr.
pub fn generate_package_files(cmd: clap::Command, out: &Path) -> ExitCode {
    match write_package_files(cmd, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
