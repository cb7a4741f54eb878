//! `config.json`: what the static app reads at start-up to find its server.
//! The reference server writes it; anyone hosting the app elsewhere writes it
//! by hand (see the README's "Hosting the app yourself").

use serde::{Deserialize, Serialize};

/// The file the app fetches from beside its `index.html`.
pub const CLIENT_CONFIG_FILE: &str = "config.json";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientConfig {
    /// The interface's `{base_url}`, e.g. `https://example.org/api/v1`, without a trailing slash.
    pub api_base: String,
    /// The OAuth application id registered for this copy of the app.
    pub application_id: String,
    /// How many posts the app keeps per account in the browser's local
    /// copy, to open instantly and read offline; the app's own bound when
    /// absent, none kept at 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_copy_posts: Option<u32>,
    /// How many posts the app holds in memory before it lets go of those
    /// no timeline, recent thread or profile shows; the app's own 4,000
    /// when absent (at least a page's worth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_posts: Option<u32>,
    /// How often, in seconds, a visible tab checks the account's activity
    /// (replies, followers, likes); the app's own 120 when absent. The
    /// reference server's live demo (`serve --demo --live`) says 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_check_seconds: Option<u32>,
}

impl ClientConfig {
    /// Checks the fields a person writes by hand, saying what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let base = self.api_base.trim();
        if !(base.starts_with("http://") || base.starts_with("https://") || base.starts_with('/')) {
            return Err(format!(
                "api_base must be an http(s) address or a path starting with /, not {:?}",
                self.api_base
            ));
        }
        if self.application_id.trim().is_empty() {
            return Err("application_id is empty".into());
        }
        Ok(())
    }

    /// `api_base` without a trailing slash, so paths can be appended.
    pub fn base(&self) -> &str {
        self.api_base.trim().trim_end_matches('/')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_what_people_get_wrong() {
        let good = ClientConfig {
            activity_check_seconds: None,
            api_base: "http://127.0.0.1:8080/api/v1/".into(),
            application_id: "app".into(),
            local_copy_posts: None,
            store_posts: None,
        };
        assert_eq!(good.check(), Ok(()));
        assert_eq!(good.base(), "http://127.0.0.1:8080/api/v1");
        let relative = ClientConfig { api_base: "/api/v1".into(), ..good.clone() };
        assert_eq!(relative.check(), Ok(()));
        let bad = ClientConfig { api_base: "127.0.0.1:8080".into(), ..good.clone() };
        assert!(bad.check().unwrap_err().contains("api_base"));
        let no_app = ClientConfig { application_id: " ".into(), ..good };
        assert!(no_app.check().unwrap_err().contains("application_id"));
    }
}
