//! The sign-in and consent page at `/oauth/authorise`, as a person sees
//! it: the HTML, its style, and the headers it is sent with. Every value
//! from the request is escaped; the protocol (what is checked, what a form
//! answer does) is `mod.rs`.

use super::words::{describe, words, Lang, Say};
use super::{Checked, Request};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use perch_model::Scope;

/// The consent form, with the username typed so far, the scopes ticked
/// and, after a failed attempt, what went wrong.
pub(super) fn consent(
    lang: Lang,
    status: StatusCode,
    req: &Request,
    checked: &Checked,
    username: &str,
    granted: &[Scope],
    error: Option<&str>,
) -> Response {
    let mut res = page(lang, status, words(lang).title, &consent_form(lang, req, checked, username, granted, error));
    // Chromium applies form-action to the redirect that follows the form too,
    // so the checked redirect URI's origin must be allowed beside 'self'.
    if let Some(origin) = origin_of(&checked.redirect_uri) {
        let policy = PAGE_POLICY.replace("form-action 'self'", &format!("form-action 'self' {origin}"));
        if let Ok(value) = header::HeaderValue::from_str(&policy) {
            res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, value);
        }
    }
    res
}

/// `scheme://host[:port]` of an http(s) URI, only when it holds nothing
/// a policy header could misread.
fn origin_of(uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    (!authority.is_empty() && !authority.contains('@') && authority.chars().all(plain))
        .then(|| format!("{scheme}://{}", authority.to_ascii_lowercase()))
}

/// A request that cannot be signed in to, and why.
pub(super) fn invalid_link(lang: Lang, problem: &Say) -> Response {
    page(
        lang,
        StatusCode::BAD_REQUEST,
        words(lang).invalid_title,
        &format!("<p class=\"error\">{}</p>", escape(&problem.words(lang))),
    )
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn page(lang: Lang, status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!DOCTYPE html><html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title}</title><style>{STYLE}</style></head>\
         <body><main><h1>{title}</h1>{body}</main></body></html>",
        title = escape(title),
        lang = lang.code(),
        dir = lang.dir(),
    );
    let mut res = (status, Html(html)).into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, header::HeaderValue::from_static(PAGE_POLICY));
    res
}

/// The policy of a page whose form posts only to this server.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

const STYLE: &str = "*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fff;color:#14181c}\
main{max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}\
input[type=text],input[type=password]{width:100%;padding:.5rem;font:inherit;border:1px solid #4f5b66;border-radius:6px}\
fieldset{margin:1rem 0;border:1px solid #d3d9df;border-radius:6px}fieldset label{display:flex;gap:.5rem;margin:.25rem 0}\
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b57b0;background:#0b57b0;color:#fff;margin-inline-end:.5rem}\
button.secondary{background:#fff;color:#0b57b0}.error{color:#a61b1b;font-weight:600}\
@media (prefers-color-scheme:dark){body{background:#111417;color:#e8ecef}input{background:#1b2026;color:#e8ecef}\
button.secondary{background:#111417;color:#7db4f5}button{background:#7db4f5;border-color:#7db4f5;color:#0b1520}.error{color:#ff8f8f}}";

fn consent_form(
    lang: Lang,
    req: &Request,
    checked: &Checked,
    username: &str,
    granted: &[Scope],
    error: Option<&str>,
) -> String {
    let w = words(lang);
    let hidden = [
        ("application_id", req.application_id.as_deref()),
        ("redirect_uri", req.redirect_uri.as_deref()),
        ("scopes", req.scopes.as_deref()),
        ("state", req.state.as_deref()),
        ("code_challenge", req.code_challenge.as_deref()),
        ("code_challenge_method", req.code_challenge_method.as_deref()),
    ]
    .iter()
    .map(|(name, value)| format!("<input type=\"hidden\" name=\"{name}\" value=\"{}\">", escape(value.unwrap_or(""))))
    .collect::<String>();
    let boxes = checked
        .scopes
        .iter()
        .map(|s| {
            format!(
                "<label><input type=\"checkbox\" name=\"scope\" value=\"{name}\"{on}> {what} <code>{name}</code></label>",
                name = s.as_str(),
                on = if granted.contains(s) { " checked" } else { "" },
                what = describe(lang, *s)
            )
        })
        .collect::<String>();
    let error = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    format!(
        "<p>{before}<strong dir=\"auto\">{app}</strong>{after}</p>{error}\
         <form method=\"post\" action=\"/oauth/authorise\">{hidden}\
         <label for=\"username\">{username_label}</label><input type=\"text\" id=\"username\" name=\"username\" autocomplete=\"username\" value=\"{user}\" required>\
         <label for=\"password\">{password_label}</label><input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>\
         <fieldset><legend>{allow_it_to}</legend>{boxes}</fieldset>\
         <button type=\"submit\" name=\"action\" value=\"allow\">{allow}</button>\
         <button type=\"submit\" name=\"action\" value=\"deny\" class=\"secondary\" formnovalidate>{deny}</button></form>",
        before = w.asks.0,
        after = w.asks.1,
        app = escape(&checked.app_name),
        user = escape(username),
        username_label = w.username,
        password_label = w.password,
        allow_it_to = w.allow_it_to,
        allow = w.allow,
        deny = w.deny,
    )
}

#[cfg(test)]
mod tests {
    use super::{escape, origin_of};

    #[test]
    fn every_character_that_could_end_text_or_an_attribute_is_escaped() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assert_eq!(escape("plain text, é"), "plain text, é");
        // Escaping twice shows the first escape, not its meaning.
        assert_eq!(escape("&lt;"), "&amp;lt;");
    }

    #[test]
    fn a_form_may_post_only_to_a_plain_http_or_https_origin() {
        assert_eq!(
            origin_of("https://Perch.Example:8443/oauth/callback?x=1").as_deref(),
            Some("https://perch.example:8443")
        );
        assert_eq!(origin_of("http://127.0.0.1:8080/oauth/callback").as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(origin_of("http://[::1]:8080#x").as_deref(), Some("http://[::1]:8080"));
        for bad in [
            "ftp://perch.example/",
            "javascript://x",
            "https:///path",
            "https://user@perch.example/",
            "https://perch.example;evil/",
            "https://per ch.example/",
            "https://perch.example\\@evil/",
            "perch.example/callback",
        ] {
            assert_eq!(origin_of(bad), None, "{bad}");
        }
    }
}
