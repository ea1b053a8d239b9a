//! The two directions of a guarded session, and the role each is read in.
//! What happens to a line is the library's session's decision, never this
//! module's.

use jsonrpc_envelope::Role;

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

    /// The other direction: where the lines handed on in this one go, to
    /// the peer whose lines that one reads.
    pub fn other(self) -> Direction {
        match self {
            Direction::ToServer => Direction::ToHost,
            Direction::ToHost => Direction::ToServer,
        }
    }
}
