//! A client of the OAuth consent page and token calls, as a browser and
//! the app use them, for the tests of sign-in.

use super::Server;
use perch_model::TokenSet;
use perch_server::tokens::pkce_challenge;
use serde_json::json;

pub struct Flow {
    pub http: reqwest::Client,
    pub base: String,
    pub app_id: String,
    pub redirect_uri: String,
}

pub const VERIFIER: &str = "a-verifier-of-at-least-forty-three-characters-0123456789";

impl Flow {
    pub async fn new(server: &Server) -> Flow {
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let config: serde_json::Value =
            http.get(format!("{}/config.json", server.base)).send().await.unwrap().json().await.unwrap();
        Flow {
            http,
            base: server.base.clone(),
            app_id: config["application_id"].as_str().unwrap().to_owned(),
            redirect_uri: format!("{}/oauth/callback", server.base),
        }
    }

    pub fn query(&self, redirect_uri: &str, scopes: &str) -> Vec<(&'static str, String)> {
        vec![
            ("application_id", self.app_id.clone()),
            ("redirect_uri", redirect_uri.to_owned()),
            ("scopes", scopes.to_owned()),
            ("state", "st4te".to_owned()),
            ("code_challenge", pkce_challenge(VERIFIER)),
            ("code_challenge_method", "S256".to_owned()),
        ]
    }

    pub async fn page(&self, query: &[(&str, String)]) -> (u16, String) {
        let res = self.http.get(format!("{}/oauth/authorise", self.base)).query(query).send().await.unwrap();
        (res.status().as_u16(), res.text().await.unwrap())
    }

    /// Submits the consent form; returns the status and the Location header.
    pub async fn submit(
        &self,
        query: &[(&str, String)],
        user: &str,
        password: &str,
        ticked: &[&str],
        action: &str,
    ) -> (u16, String, String) {
        self.submit_from(None, query, user, password, ticked, action).await
    }

    /// `submit` through a proxy that says the client is `forwarded_for`.
    pub async fn submit_from(
        &self,
        forwarded_for: Option<&str>,
        query: &[(&str, String)],
        user: &str,
        password: &str,
        ticked: &[&str],
        action: &str,
    ) -> (u16, String, String) {
        let mut form: Vec<(String, String)> = query.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        form.push(("username".into(), user.into()));
        form.push(("password".into(), password.into()));
        form.extend(ticked.iter().map(|s| ("scope".to_string(), s.to_string())));
        form.push(("action".into(), action.into()));
        let mut req = self.http.post(format!("{}/oauth/authorise", self.base)).form(&form);
        if let Some(client) = forwarded_for {
            req = req.header("x-forwarded-for", client);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let location = res.headers().get("location").map(|l| l.to_str().unwrap().to_owned()).unwrap_or_default();
        (status, location, res.text().await.unwrap())
    }

    pub async fn exchange(&self, code: &str, verifier: &str) -> (u16, serde_json::Value) {
        let res = self
            .http
            .post(format!("{}/api/oauth/code", self.base))
            .json(&json!({"code": code, "code_verifier": verifier}))
            .send()
            .await
            .unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }

    pub async fn revoke(&self, body: serde_json::Value) -> (u16, serde_json::Value) {
        let res = self.http.post(format!("{}/api/oauth/revoke", self.base)).json(&body).send().await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap_or_default())
    }

    /// A signed-in token pair for ada.
    pub async fn pair(&self) -> TokenSet {
        let code = self.code("user.get", &["user.get"]).await;
        serde_json::from_value(self.exchange(&code, VERIFIER).await.1).unwrap()
    }

    pub async fn refresh(&self, refresh_token: &str) -> (u16, serde_json::Value) {
        let res = self
            .http
            .post(format!("{}/api/oauth/refreshtoken", self.base))
            .json(&json!({"refreshToken": refresh_token}))
            .send()
            .await
            .unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }

    /// Signs in as ada with these scopes ticked and returns the code.
    pub async fn code(&self, requested: &str, ticked: &[&str]) -> String {
        let (status, location, _) =
            self.submit(&self.query(&self.redirect_uri, requested), "ada", "pw-ada", ticked, "allow").await;
        assert_eq!(status, 303, "{location}");
        param(&location, "code").expect("a code")
    }
}

pub fn param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}
