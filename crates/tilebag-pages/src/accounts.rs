//! The players' account pages: sign up, sign in, the account itself (change the password, sign
//! out here or everywhere); a player's public profile (`/u/NAME`) is `profile.rs`. The handlers
//! in the server's `accounts.rs` decide; these functions only lay it out. Every form that changes a
//! signed-in account carries its CSRF token in a hidden field.

use super::public_layout;
use maud::{html, Markup};

/// What a sign-up or sign-in form shows again after a refusal.
#[derive(Default)]
pub struct FormState<'a> {
    /// The refusal, in words (never whether another account exists).
    pub error: Option<&'a str>,
    /// The name typed (never the password).
    pub username: &'a str,
    /// Where to go once signed in (a path on this site).
    pub next: &'a str,
}

fn error_line(error: Option<&str>) -> Markup {
    html! { @if let Some(e) = error { p.flash.err #error role="alert" { (e) } } }
}

/// `GET /signup`.
pub fn signup_page(f: &FormState<'_>) -> Markup {
    public_layout(
        "Create an account",
        html! {
            (error_line(f.error))
            form method="post" action="/signup" {
                input type="hidden" name="next" value=(f.next);
                label { "Username " input #username name="username" value=(f.username) autocomplete="username" required minlength="3" maxlength="20" aria-describedby="username-rules"; }
                label { "Password " input #password type="password" name="password" autocomplete="new-password" required minlength="8" aria-describedby="password-rules"; }
                label { "Email (optional) " input #email type="email" name="email" autocomplete="email"; }
                button #create { "Create the account" }
            }
            p #username-rules { "A username has 3 to 20 letters, digits, " code { "_" } " or " code { "-" } ", and starts with a letter." }
            p #password-rules { "A password has at least 8 characters and is not the username." }
            p { "Already have one? " a href=(format!("/signin?next={}", super::enc(f.next))) { "Sign in" } }
            p { "Without an account you can still play by a game's link." }
        },
        None,
    )
}

/// `GET /signin`.
pub fn signin_page(f: &FormState<'_>) -> Markup {
    public_layout(
        "Sign in",
        html! {
            (error_line(f.error))
            form method="post" action="/signin" {
                input type="hidden" name="next" value=(f.next);
                label { "Username " input #username name="username" value=(f.username) autocomplete="username" required; }
                label { "Password " input #password type="password" name="password" autocomplete="current-password" required; }
                button #sign-in { "Sign in" }
            }
            p { "No account yet? " a href=(format!("/signup?next={}", super::enc(f.next))) { "Create one" } }
        },
        None,
    )
}

/// A rating as the pages show it.
pub struct RatingRow {
    /// The category's name: lexicon and time-control class (`enable1 · blitz`).
    pub category: String,
    /// The rating, rounded, with `?` while provisional (`1612?`).
    pub rating: String,
    /// The rating deviation, rounded.
    pub deviation: i64,
    pub games: u64,
    pub provisional: bool,
}

fn ratings_table(ratings: &[RatingRow]) -> Markup {
    html! {
        @if ratings.is_empty() {
            p #no-ratings { "No rated games yet." }
        } @else {
            div.scroll tabindex="0" {
                table #ratings {
                    caption { "Online ratings (Glicko-2; a " abbr title="provisional" { "?" } " marks a provisional rating)" }
                    thead { tr { th scope="col" { "Category" } th scope="col" { "Rating" } th scope="col" { "Deviation" } th scope="col" { "Games" } } }
                    tbody {
                        @for r in ratings {
                            tr class=[r.provisional.then_some("provisional")] {
                                td { (r.category) } td.n { (r.rating) } td.n { "±" (r.deviation) } td.n { (r.games) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /account`, signed in.
pub fn account_page(
    username: &str,
    since: &str,
    csrf: &str,
    message: Option<&str>,
    error: Option<&str>,
    ratings: &[RatingRow],
) -> Markup {
    public_layout(
        &format!("Your account: {username}"),
        html! {
            @if let Some(m) = message { p.flash.ok #message role="status" { (m) } }
            (error_line(error))
            p { "Signed in as " strong #who { (username) } " (since " (since) "). "
                a href=(format!("/u/{}", super::enc(username))) { "Your public profile" } }
            (ratings_table(ratings))
            h2 { "Change the password" }
            form method="post" action="/account/password" {
                input type="hidden" name="csrf" value=(csrf);
                label { "Current password " input #current type="password" name="current" autocomplete="current-password" required; }
                label { "New password " input #new-password type="password" name="new" autocomplete="new-password" required minlength="8"; }
                button #change-password { "Change the password" }
            }
            p { "Changing the password signs you out everywhere else." }
            h2 { "Sign out" }
            form.inline method="post" action="/signout" {
                input type="hidden" name="csrf" value=(csrf);
                button #sign-out { "Sign out" }
            }
            form.inline method="post" action="/signout-everywhere" {
                input type="hidden" name="csrf" value=(csrf);
                button #sign-out-everywhere { "Sign out everywhere" }
            }
        },
        None,
    )
}
