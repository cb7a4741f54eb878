//! The sign-in and consent page's words, in the languages the app speaks
//! (English, German, Arabic), chosen from the request's `Accept-Language`:
//! the first language asked for that is here, by its weight (`q`), else
//! English. What the page says after a failed attempt is a [`Say`], written
//! in the page's language. (The API's `_message`s stay English: they are
//! the API's, and the app shows its own words for them.)

use perch_model::Scope;

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    De,
    Ar,
}

impl Lang {
    const ALL: [Lang; 3] = [Lang::En, Lang::De, Lang::Ar];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Ar => "ar",
        }
    }

    pub fn dir(self) -> &'static str {
        if self == Lang::Ar {
            "rtl"
        } else {
            "ltr"
        }
    }

    /// The language an `Accept-Language` header prefers among these:
    /// "fr;q=1, de-AT;q=0.8, en;q=0.5" is German. Weights that do not
    /// parse count as 1; a weight of 0 refuses; at most 32 entries are read.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for entry in header.unwrap_or_default().split(',').take(32) {
            let mut parts = entry.split(';');
            let tag = parts.next().unwrap_or_default().trim();
            let weight = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(1.0, |q| q.trim().parse::<f32>().ok().filter(|q| (0.0..=1.0).contains(q)).unwrap_or(1.0));
            let base = tag.split('-').next().unwrap_or_default();
            let Some(lang) = Lang::ALL.into_iter().find(|l| l.code().eq_ignore_ascii_case(base)) else { continue };
            if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
                best = Some((weight, lang));
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }
}

/// What the page says about a request or an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Say {
    Malformed,
    NoApplication,
    LookupFailed,
    AppNotRegistered,
    RedirectNotRegistered,
    NeedsPkce,
    /// A scope name that is not one (the name as asked, shown escaped).
    UnknownScope(String),
    NoScopes,
    WrongPassword,
    TooManyFailures(u64),
    Busy,
    CannotCheck,
    CannotFinish,
    AllowOne,
}

impl Say {
    pub fn words(&self, lang: Lang) -> String {
        use Lang::*;
        let text = |en: &str, de: &str, ar: &str| match lang {
            En => en.to_owned(),
            De => de.to_owned(),
            Ar => ar.to_owned(),
        };
        match self {
            Say::Malformed => text(
                "The sign-in link is malformed: each parameter may appear once.",
                "Der Anmeldelink ist fehlerhaft: Jeder Parameter darf nur einmal vorkommen.",
                "رابط تسجيل الدخول مشوّه: يجوز أن يظهر كل معامل مرة واحدة.",
            ),
            Say::NoApplication => text(
                "The request names no application.",
                "Die Anfrage nennt keine Anwendung.",
                "الطلب لا يذكر أي تطبيق.",
            ),
            Say::LookupFailed => text(
                "The server could not look up the application.",
                "Der Server konnte die Anwendung nicht nachschlagen.",
                "تعذّر على الخادم البحث عن التطبيق.",
            ),
            Say::AppNotRegistered => text(
                "The application is not registered on this server.",
                "Die Anwendung ist auf diesem Server nicht registriert.",
                "التطبيق غير مسجّل على هذا الخادم.",
            ),
            Say::RedirectNotRegistered => text(
                "The address to return to is not registered for this application.",
                "Die Rücksprungadresse ist für diese Anwendung nicht registriert.",
                "عنوان العودة غير مسجّل لهذا التطبيق.",
            ),
            Say::NeedsPkce => text(
                "The request must use PKCE with code_challenge_method=S256.",
                "Die Anfrage muss PKCE mit code_challenge_method=S256 verwenden.",
                "يجب أن يستخدم الطلب PKCE مع code_challenge_method=S256.",
            ),
            Say::UnknownScope(name) => match lang {
                En => format!("The request asks for an unknown scope: {name}."),
                De => format!("Die Anfrage verlangt einen unbekannten Bereich: {name}."),
                Ar => format!("يطلب الطلب نطاقًا غير معروف: {name}."),
            },
            Say::NoScopes => text(
                "The request asks for no scopes.",
                "Die Anfrage verlangt keine Bereiche.",
                "الطلب لا يطلب أي نطاقات.",
            ),
            Say::WrongPassword => text(
                "Wrong username or password.",
                "Falscher Benutzername oder falsches Passwort.",
                "اسم المستخدم أو كلمة المرور غير صحيحة.",
            ),
            Say::TooManyFailures(secs) => match lang {
                En => format!("Too many failed sign-ins. Try again in {secs} seconds."),
                De => format!("Zu viele fehlgeschlagene Anmeldungen. Versuche es in {secs} Sekunden erneut."),
                Ar => format!("محاولات دخول فاشلة كثيرة. حاول مرة أخرى بعد {secs} ثانية."),
            },
            Say::Busy => text(
                "The server is busy checking other sign-ins. Try again in a moment.",
                "Der Server prüft gerade andere Anmeldungen. Versuche es gleich noch einmal.",
                "الخادم مشغول بالتحقق من عمليات دخول أخرى. حاول مرة أخرى بعد لحظة.",
            ),
            Say::CannotCheck => text(
                "The server could not check the password. Try again.",
                "Der Server konnte das Passwort nicht prüfen. Versuche es erneut.",
                "تعذّر على الخادم التحقق من كلمة المرور. حاول مرة أخرى.",
            ),
            Say::CannotFinish => text(
                "The server could not finish signing in. Try again.",
                "Der Server konnte die Anmeldung nicht abschließen. Versuche es erneut.",
                "تعذّر على الخادم إكمال تسجيل الدخول. حاول مرة أخرى.",
            ),
            Say::AllowOne => text(
                "Allow at least one thing, or choose Deny.",
                "Erlaube mindestens eine Sache, oder wähle „Ablehnen“.",
                "اسمح بشيء واحد على الأقل، أو اختر الرفض.",
            ),
        }
    }
}

/// The page's fixed words in one language.
pub struct Words {
    pub title: &'static str,
    pub invalid_title: &'static str,
    /// Before and after the application's name: "{app} asks to use your account."
    pub asks: (&'static str, &'static str),
    pub username: &'static str,
    pub password: &'static str,
    pub allow_it_to: &'static str,
    pub allow: &'static str,
    pub deny: &'static str,
}

pub fn words(lang: Lang) -> Words {
    match lang {
        Lang::En => Words {
            title: "Sign in to Perch",
            invalid_title: "This sign-in link is not valid",
            asks: ("", " asks to use your account."),
            username: "Username",
            password: "Password",
            allow_it_to: "Allow it to",
            allow: "Sign in and allow",
            deny: "Deny",
        },
        Lang::De => Words {
            title: "Bei Perch anmelden",
            invalid_title: "Dieser Anmeldelink ist ungültig",
            asks: ("", " möchte dein Konto verwenden."),
            username: "Benutzername",
            password: "Passwort",
            allow_it_to: "Erlauben:",
            allow: "Anmelden und erlauben",
            deny: "Ablehnen",
        },
        Lang::Ar => Words {
            title: "تسجيل الدخول إلى Perch",
            invalid_title: "رابط تسجيل الدخول هذا غير صالح",
            asks: ("يطلب ", " استخدام حسابك."),
            username: "اسم المستخدم",
            password: "كلمة المرور",
            allow_it_to: "السماح له بـ",
            allow: "سجّل الدخول واسمح",
            deny: "رفض",
        },
    }
}

/// What a scope allows, in words.
pub fn describe(lang: Lang, scope: Scope) -> &'static str {
    let [en, de, ar] = match scope {
        Scope::PostGet => ["read posts", "Beiträge lesen", "قراءة المنشورات"],
        Scope::PostSend => ["publish posts", "Beiträge veröffentlichen", "نشر المنشورات"],
        Scope::PostEdit => ["edit your posts", "deine Beiträge bearbeiten", "تعديل منشوراتك"],
        Scope::PostDelete => ["delete your posts", "deine Beiträge löschen", "حذف منشوراتك"],
        Scope::PostLike => {
            ["like and unlike posts", "Beiträge mögen und nicht mehr mögen", "الإعجاب بالمنشورات وإلغاؤه"]
        }
        Scope::ReplyGet => ["read replies", "Antworten lesen", "قراءة الردود"],
        Scope::ReplyPost => ["publish replies", "Antworten veröffentlichen", "نشر الردود"],
        Scope::ReplyEdit => ["edit your replies", "deine Antworten bearbeiten", "تعديل ردودك"],
        Scope::ReplyDelete => ["delete your replies", "deine Antworten löschen", "حذف ردودك"],
        Scope::ReplyLike => {
            ["like and unlike replies", "Antworten mögen und nicht mehr mögen", "الإعجاب بالردود وإلغاؤه"]
        }
        Scope::UserGet => ["read profiles", "Profile lesen", "قراءة الملفات الشخصية"],
        Scope::UserEmail => ["see your email address", "deine E-Mail-Adresse sehen", "رؤية بريدك الإلكتروني"],
        Scope::UserFollow => {
            ["follow and unfollow people", "Leuten folgen und entfolgen", "متابعة الأشخاص وإلغاء متابعتهم"]
        }
        Scope::UserFollowingGet => ["see whom people follow", "sehen, wem Leute folgen", "رؤية من يتابعهم الأشخاص"],
        Scope::UserFollowersGet => ["see who follows people", "sehen, wer Leuten folgt", "رؤية من يتابع الأشخاص"],
    };
    match lang {
        Lang::En => en,
        Lang::De => de,
        Lang::Ar => ar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preferred_language_here_is_chosen_by_weight() {
        let of = |h: &str| Lang::from_accept_language(Some(h));
        assert_eq!(of("de-DE,de;q=0.9,en;q=0.8"), Lang::De);
        assert_eq!(of("fr;q=1, ar-EG;q=0.8, en;q=0.5"), Lang::Ar);
        assert_eq!(of("en;q=0.4, de;q=0.7"), Lang::De, "the weight counts, not the order");
        assert_eq!(of("de;q=0, en;q=0.1"), Lang::En, "q=0 refuses");
        assert_eq!(of("fr, es"), Lang::En);
        assert_eq!(of("DE"), Lang::De);
        assert_eq!(of("de;q=abc"), Lang::De, "a weight that does not parse counts as 1");
        assert_eq!(of(""), Lang::En);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
        let long = format!("{}de", "fr,".repeat(40));
        assert_eq!(of(&long), Lang::En, "only the first 32 entries are read");
    }

    #[test]
    fn every_scope_is_described_in_every_language() {
        for lang in Lang::ALL {
            for scope in Scope::ALL {
                assert!(!describe(lang, scope).is_empty());
            }
            let mut seen: Vec<&str> = Scope::ALL.iter().map(|s| describe(lang, *s)).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), Scope::ALL.len(), "{lang:?}: two scopes read the same");
        }
        assert_eq!(describe(Lang::De, Scope::PostGet), "Beiträge lesen");
        assert_eq!(describe(Lang::Ar, Scope::UserEmail), "رؤية بريدك الإلكتروني");
    }

    #[test]
    fn what_the_page_says_is_in_its_language() {
        assert_eq!(Say::WrongPassword.words(Lang::En), "Wrong username or password.");
        assert_eq!(Say::WrongPassword.words(Lang::De), "Falscher Benutzername oder falsches Passwort.");
        assert!(Say::TooManyFailures(30).words(Lang::Ar).contains("30"));
        assert!(Say::UnknownScope("x.y".into()).words(Lang::De).contains("x.y"));
        assert_eq!(Lang::Ar.dir(), "rtl");
        assert_eq!(words(Lang::De).deny, "Ablehnen");
    }
}
