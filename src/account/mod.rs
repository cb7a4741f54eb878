//! The signed-in person: the session and what its token allows
//! (`session`), the OAuth sign-in's browser half (`oauth`), and the drafts
//! kept per account (`drafts`).

pub mod drafts;
pub mod oauth;
pub mod session;
