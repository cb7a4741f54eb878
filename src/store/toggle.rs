//! The like and follow buttons' logic, as a plain state machine. The
//! interface only offers a toggle, so the screen must never drift from the
//! server: the screen shows the person's latest intent at once; at most one
//! request is in flight; clicks made meanwhile fold into one pending intent
//! (the last click wins); an answer that leaves the server away from the
//! intent sends one more toggle; a failure goes back to the server's last
//! known state.

/// What the caller must do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Nothing: the server already has (or is about to have) the intent.
    Wait,
    /// Send one toggle request now.
    Send,
}

/// Corrective sends allowed after the last click before giving up (another
/// device toggling at the same time could otherwise keep us going).
const MAX_CORRECTIONS: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toggle {
    /// The server's state as last learned.
    server: bool,
    /// What the person wants, and what the screen shows.
    intent: bool,
    /// A request is out.
    in_flight: bool,
    corrections: u8,
}

impl Toggle {
    pub fn new(server: bool) -> Self {
        Toggle { server, intent: server, in_flight: false, corrections: 0 }
    }

    /// What the screen shows.
    pub fn shown(&self) -> bool {
        self.intent
    }

    /// The server's state as last learned.
    pub fn server(&self) -> bool {
        self.server
    }

    pub fn busy(&self) -> bool {
        self.in_flight
    }

    /// Shown as wanted, with no request out: it waits in the outbox.
    pub fn waiting(&self) -> bool {
        !self.in_flight && self.intent != self.server
    }

    /// A click flips the intent at once.
    pub fn click(&mut self) -> Next {
        self.intent = !self.intent;
        self.corrections = 0;
        self.next()
    }

    /// The server answered: the toggle left it in state `now`.
    pub fn answered(&mut self, now: bool) -> Next {
        self.in_flight = false;
        self.server = now;
        if self.intent != self.server {
            if self.corrections >= MAX_CORRECTIONS {
                self.intent = self.server;
                return Next::Wait;
            }
            self.corrections += 1;
        }
        self.next()
    }

    /// The request failed: back to what the server last said.
    pub fn failed(&mut self) {
        self.in_flight = false;
        self.intent = self.server;
    }

    /// A click while the toggle waits in the outbox (`outbox.rs`): the
    /// intent flips, and no request is claimed here.
    pub fn hold(&mut self) {
        self.intent = !self.intent;
        self.corrections = 0;
    }

    /// The request got no answer: the intent stays, and waits in the outbox.
    pub fn park(&mut self) {
        self.in_flight = false;
    }

    /// Waiting in the outbox: the server had `server`, the person wants `intent`.
    pub fn waits(&mut self, server: bool, intent: bool) {
        *self = Toggle { server, intent, in_flight: false, corrections: 0 };
    }

    /// Sent by another tab's outbox: the server has what was wanted.
    pub fn learn_waited(&mut self, now: bool) {
        if !self.in_flight {
            self.server = now;
            self.intent = now;
        }
    }

    /// The server's state learned elsewhere (a fresh load), when idle.
    pub fn learn(&mut self, server: bool) {
        if !self.in_flight && self.intent == self.server {
            self.server = server;
            self.intent = server;
        }
    }

    fn next(&mut self) -> Next {
        if !self.in_flight && self.intent != self.server {
            self.in_flight = true;
            Next::Send
        } else {
            Next::Wait
        }
    }
}

/// The count to show beside a toggle: the server's count, moved by the
/// difference between what is shown and what the server has.
pub fn shown_count(server_count: u64, toggle: &Toggle) -> u64 {
    match (toggle.server, toggle.intent) {
        (false, true) => server_count + 1,
        (true, false) => server_count.saturating_sub(1),
        _ => server_count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn a_click_shows_at_once_and_sends_one_request() {
        let mut t = Toggle::new(false);
        assert_eq!(t.click(), Next::Send);
        assert!(t.shown() && t.busy());
        assert_eq!(shown_count(4, &t), 5);
        assert_eq!(t.answered(true), Next::Wait);
        assert!(t.shown() && t.server() && !t.busy());
        assert_eq!(shown_count(5, &t), 5);
    }

    #[test]
    fn clicks_while_busy_fold_into_the_last_one() {
        let mut t = Toggle::new(false);
        assert_eq!(t.click(), Next::Send); // want liked
        assert_eq!(t.click(), Next::Wait); // want unliked: waits
        assert_eq!(t.click(), Next::Wait); // want liked again: waits
        assert!(t.shown());
        assert_eq!(t.answered(true), Next::Wait, "the server already has the last intent");
        let mut t = Toggle::new(false);
        t.click();
        t.click(); // want unliked
        assert_eq!(t.answered(true), Next::Send, "one more toggle to reach the last intent");
        assert_eq!(t.answered(false), Next::Wait);
        assert!(!t.shown() && !t.server());
    }

    #[test]
    fn an_answer_against_the_intent_sends_once_more() {
        // Another device liked it meanwhile: our toggle unliked it.
        let mut t = Toggle::new(false);
        t.click();
        assert_eq!(t.answered(false), Next::Send);
        assert_eq!(t.answered(true), Next::Wait);
        assert!(t.shown() && t.server());
    }

    #[test]
    fn a_failure_goes_back_to_the_server_state() {
        let mut t = Toggle::new(true);
        t.click();
        assert_eq!(shown_count(10, &t), 9);
        t.failed();
        assert!(t.shown() && t.server() && !t.busy());
        assert_eq!(shown_count(10, &t), 10);
    }

    #[test]
    fn gives_up_after_a_few_corrections() {
        let mut t = Toggle::new(false);
        t.click();
        let mut sends = 0;
        // A server that always answers the opposite of what we want.
        while t.answered(false) == Next::Send {
            sends += 1;
            assert!(sends <= MAX_CORRECTIONS as usize);
        }
        assert!(!t.shown(), "the screen ends on the server's state");
    }

    /// Any sequence of clicks, with answers arriving at any point and some
    /// requests failing, ends with screen = server = the last intent, or
    /// screen = server after a failure that came after the last click.
    #[test]
    fn property_screen_and_server_agree_after_any_interleaving() {
        for seed in 1..3000u64 {
            let mut rng = Rng::new(seed);
            let start = rng.next() % 2 == 0;
            let mut server = start; // the real server
            let mut t = Toggle::new(start);
            let mut out = false; // a request is travelling
            let mut last_intent = start;
            let mut failed_after_last_click = false;
            for _ in 0..(rng.next() % 40) {
                match rng.next() % 4 {
                    0 | 1 => {
                        // a click
                        if t.click() == Next::Send {
                            assert!(!out, "seed {seed}: two requests in flight");
                            out = true;
                        }
                        last_intent = t.shown();
                        failed_after_last_click = false;
                    }
                    2 if out => {
                        // the request arrives and is answered
                        server = !server;
                        out = false;
                        if t.answered(server) == Next::Send {
                            out = true;
                        }
                    }
                    3 if out => {
                        // the request fails before reaching the server
                        out = false;
                        t.failed();
                        failed_after_last_click = true;
                    }
                    _ => {}
                }
                assert_eq!(out, t.busy(), "seed {seed}");
            }
            // Let everything in flight land.
            while out {
                server = !server;
                out = t.answered(server) == Next::Send;
            }
            assert_eq!(t.shown(), server, "seed {seed}: screen = server");
            if !failed_after_last_click {
                assert_eq!(server, last_intent, "seed {seed}: server = last intent");
            }
        }
    }
}
