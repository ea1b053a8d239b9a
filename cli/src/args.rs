use std::ffi::OsString;
use std::path::PathBuf;

use jsonrpc_envelope::{DEFAULT_MAX_LINE, Role};

pub enum Command {
    Classify,
    Lint,
    Help,
    Version,
}

pub struct Options {
    pub command: Command,
    pub role: Role,
    pub max_line: usize,
    /// None, or `-`: standard input.
    pub file: Option<PathBuf>,
}

pub fn parse(mut args: impl Iterator<Item = OsString>) -> Result<Options, String> {
    let mut options = Options { command: Command::Help, role: Role::Client, max_line: DEFAULT_MAX_LINE, file: None };
    let Some(first) = args.next() else {
        return Err("no command given".into());
    };
    options.command = match first.to_str() {
        Some("classify") => Command::Classify,
        Some("lint") => Command::Lint,
        Some("-h" | "--help" | "help") => return Ok(options),
        Some("-V" | "--version") => {
            options.command = Command::Version;
            return Ok(options);
        }
        _ => return Err(format!("unknown command {first:?}: expected classify or lint")),
    };
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => {
                options.command = Command::Help;
                return Ok(options);
            }
            Some("--role") if matches!(options.command, Command::Lint) => {
                options.role = value(&mut args, "--role")?.parse().map_err(|e| format!("--role: {e}"))?;
            }
            Some("--max-line") => {
                let text = value(&mut args, "--max-line")?;
                options.max_line = text
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n > 0)
                    .ok_or_else(|| format!("--max-line takes a positive number of bytes, not {text:?}"))?;
            }
            Some(flag) if flag.starts_with('-') && flag != "-" => return Err(format!("unknown option {flag:?}")),
            _ if options.file.is_none() => options.file = Some(PathBuf::from(arg)),
            _ => return Err(format!("more than one file given ({arg:?})")),
        }
    }
    Ok(options)
}

fn value(args: &mut impl Iterator<Item = OsString>, flag: &str) -> Result<String, String> {
    args.next().and_then(|v| v.into_string().ok()).ok_or_else(|| format!("{flag} needs a value"))
}
