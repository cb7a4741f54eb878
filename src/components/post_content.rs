//! A post's text as it is shown: plain text nodes, links and mentions,
//! never markup (`text.rs` cuts it into segments).

use crate::nav::AppPath;
use crate::text::{segments, Segment};
use leptos::prelude::*;

/// The content of a post: text, links and mentions.
#[component]
pub fn PostContent(content: String) -> impl IntoView {
    let parts = segments(&content)
        .into_iter()
        .map(|segment| match segment {
            Segment::Text(text) => text.into_any(),
            Segment::Link(url) => view! {
                <a href=url.clone() rel="noopener noreferrer nofollow" target="_blank" class="link">{url.clone()}</a>
            }
            .into_any(),
            Segment::Mention(name) => {
                view! { <a href=AppPath::Profile(&name).href() class="mention">{format!("@{name}")}</a> }.into_any()
            }
        })
        .collect_view();
    view! { <p class="post-content" dir="auto">{parts}</p> }
}
