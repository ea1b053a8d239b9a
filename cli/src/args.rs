use std::ffi::OsString;
use std::path::PathBuf;

use jsonrpc_envelope::{DEFAULT_MAX_LINE, Profile, Role};

use crate::guard::{self, GuardOptions};

pub enum Command {
    Classify,
    Lint,
    Guard(GuardOptions),
    Help,
    Version,
}

pub struct Options {
    pub command: Command,
    pub role: Role,
    /// The rules lines are read by (`--profile`; the library's default).
    pub profile: Profile,
    /// `lint --recording`: the file is a guard's recording.
    pub recording: bool,
    pub max_line: usize,
    /// None, or `-`: standard input.
    pub file: Option<PathBuf>,
}

pub fn parse(mut args: impl Iterator<Item = OsString>) -> Result<Options, String> {
    let mut options = Options {
        command: Command::Help,
        role: Role::Client,
        profile: Profile::default(),
        recording: false,
        max_line: DEFAULT_MAX_LINE,
        file: None,
    };
    let Some(first) = args.next() else {
        return Err("no command given".into());
    };
    options.command = match first.to_str() {
        Some("classify") => Command::Classify,
        Some("lint") => Command::Lint,
        Some("guard") => {
            options.command = Command::Guard(guard::parse(args)?);
            return Ok(options);
        }
        Some("-h" | "--help" | "help") => return Ok(options),
        Some("-V" | "--version") => {
            options.command = Command::Version;
            return Ok(options);
        }
        _ => return Err(format!("unknown command {first:?}: expected classify, lint or guard")),
    };
    let mut role_given = false;
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => {
                options.command = Command::Help;
                return Ok(options);
            }
            Some("--role") if matches!(options.command, Command::Lint) => {
                options.role = value(&mut args, "--role")?.parse().map_err(|e| format!("--role: {e}"))?;
                role_given = true;
            }
            Some("--recording") if matches!(options.command, Command::Lint) => options.recording = true,
            Some("--profile") => options.profile = profile(&value(&mut args, "--profile")?)?,
            Some("--max-line") => options.max_line = max_line(&value(&mut args, "--max-line")?)?,
            Some(flag) if flag.starts_with('-') && flag != "-" => return Err(format!("unknown option {flag:?}")),
            _ if options.file.is_none() => options.file = Some(PathBuf::from(arg)),
            _ => return Err(format!("more than one file given ({arg:?})")),
        }
    }
    if options.recording && role_given {
        return Err("--role and --recording: a recording's directions give the roles".into());
    }
    Ok(options)
}

/// A `--max-line` value: a positive number of bytes.
pub fn max_line(text: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|&n: &usize| n > 0)
        .ok_or_else(|| format!("--max-line takes a positive number of bytes, not {text:?}"))
}

/// A `--profile` value: a profile's name, as the library reads it.
pub fn profile(text: &str) -> Result<Profile, String> {
    text.parse().map_err(|e| format!("--profile: {e}"))
}

/// The profiles' names, for help texts: `jsonrpc|mcp`.
pub fn profile_names() -> String {
    Profile::ALL.map(Profile::name).join("|")
}

fn value(args: &mut impl Iterator<Item = OsString>, flag: &str) -> Result<String, String> {
    args.next().and_then(|v| v.into_string().ok()).ok_or_else(|| format!("{flag} needs a value"))
}
