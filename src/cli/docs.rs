//! `hookrun completions` and `hookrun man`: shell completions and man pages,
//! generated from the command-line definition so they never fall behind it.

use std::io::Write;

use anyhow::{Result, bail};
use clap::{Args, Command};
use clap_complete::Shell;

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// A subcommand whose page to print (`hookrun-<subcommand>(1)`); without
    /// it, the page of `hookrun` itself.
    subcommand: Option<String>,
}

/// Prints the completion script of `args.shell` for `command`.
pub fn completions(args: CompletionsArgs, mut command: Command) -> Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "hookrun", &mut out);
    emit(&out)
}

/// Prints the man page (roff) of `command` or of one of its subcommands.
pub fn man(args: ManArgs, mut command: Command) -> Result<u8> {
    // Built, so subcommands carry the propagated version.
    command.build();
    let command = match &args.subcommand {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let names: Vec<&str> = command.get_subcommands().map(Command::get_name).collect();
                bail!(
                    "hookrun has no subcommand {name:?}; man pages exist for: {}",
                    names.join(", ")
                );
            };
            // The page's title and synopsis name `hookrun <subcommand>`.
            sub.clone()
                .name(format!("hookrun-{name}"))
                .bin_name(format!("hookrun {name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut out)
        .map_err(super::unwritten("the man page"))?;
    emit(&out)
}

fn emit(bytes: &[u8]) -> Result<u8> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(super::unwritten("standard output"))?;
    Ok(0)
}
