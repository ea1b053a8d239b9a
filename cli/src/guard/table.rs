//! SPEC §8's two tables: what the guard does with each kind of line in each
//! direction. This is the guard's only decision; what a line is, and the
//! reply it gets, are the library's.

use jsonrpc_envelope::{Kind, Role};

/// Which way a line travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the host to the child (the server).
    ToServer,
    /// From the child to the host.
    ToHost,
}

impl Direction {
    pub const BOTH: [Direction; 2] = [Direction::ToServer, Direction::ToHost];

    /// The name a recording and a diagnostic give it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::ToServer => "to_server",
            Direction::ToHost => "to_host",
        }
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::BOTH.into_iter().find(|dir| dir.name() == name)
    }

    /// The role the guard reads the direction's lines as: the child's stdin
    /// as its server would, the child's stdout as its host would.
    pub fn role(self) -> Role {
        match self {
            Direction::ToServer => Role::Server,
            Direction::ToHost => Role::Client,
        }
    }
}

/// What happens to a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Its bytes go on to the other side, with an LF.
    Forwarded,
    /// The guard sends the library's reply back to the side it came from.
    Answered,
    /// It becomes a diagnostic on the guard's stderr.
    Diverted,
    /// It goes nowhere (with a diagnostic).
    Dropped,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Forwarded => "forwarded",
            Action::Answered => "answered",
            Action::Diverted => "diverted",
            Action::Dropped => "dropped",
        }
    }
}

/// The action for a line of `kind` (`None`: over the line limit) going
/// `dir`. With `pass_invalid`, the lines the guard would answer are
/// forwarded instead.
pub fn action(dir: Direction, kind: Option<Kind>, pass_invalid: bool) -> Action {
    use Kind::*;
    let Some(kind) = kind else { return Action::Dropped };
    let action = match (dir, kind) {
        (_, Request | Notification | Response) => Action::Forwarded,
        (Direction::ToServer, ParseError | Batch | NotObject | InvalidRequest) => Action::Answered,
        (Direction::ToServer, Empty | NotJsonRpc) => Action::Dropped,
        (Direction::ToHost, InvalidRequest) => Action::Answered,
        (Direction::ToHost, ParseError | Batch | NotObject | Empty | NotJsonRpc) => Action::Diverted,
    };
    if pass_invalid && action == Action::Answered { Action::Forwarded } else { action }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common;

    /// The table answers exactly the lines the library has a reply for, in
    /// both directions: the two never disagree about a vector.
    #[test]
    fn answered_lines_are_the_lines_the_library_replies_to() {
        let cases = common::envelope_cases();
        assert!(cases.len() > 90);
        for case in &cases {
            let c = jsonrpc_envelope::classify(&case.line);
            for dir in Direction::BOTH {
                let answered = action(dir, Some(c.kind), false) == Action::Answered;
                assert_eq!(answered, c.reply(dir.role()).is_some(), "{} {}", dir.name(), case.name);
            }
        }
    }

    #[test]
    fn pass_invalid_forwards_what_would_be_answered_and_nothing_else_changes() {
        assert_eq!(action(Direction::ToServer, Some(Kind::Batch), true), Action::Forwarded);
        assert_eq!(action(Direction::ToHost, Some(Kind::InvalidRequest), true), Action::Forwarded);
        assert_eq!(action(Direction::ToHost, Some(Kind::ParseError), true), Action::Diverted);
        assert_eq!(action(Direction::ToServer, Some(Kind::Empty), true), Action::Dropped);
        assert_eq!(action(Direction::ToServer, None, true), Action::Dropped);
    }
}
