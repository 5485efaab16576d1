//! Players' accounts over HTTP: sign up, sign in, sign out (here or everywhere), change the
//! password (a player's public profile is `profile.rs`). The rules are `tilebag-accounts`' (pure); the
//! records are the store's (`AccountStore`); the pages are `tilebag-pages::accounts`. Guests
//! still play by a game's link: nothing here is needed to play.
//!
//! - A session is a random token in an `HttpOnly`, `SameSite=Lax` cookie; the store keeps only
//!   its hash, so a copy of the database opens no session. It ends when idle or too old
//!   (`SessionPolicy`), at sign-out, or at "sign out everywhere" (every session of the account is
//!   deleted) and changing the password (every other session is).
//! - Forms: every POST must come from this site (`Origin`, see `origin.rs`), and the forms of a
//!   signed-in player carry a CSRF token derived from the session, checked in constant time.
//! - Sign-in never tells whether a name exists: the same words and status for an unknown name and
//!   a wrong password, and an unknown name costs the same Argon2id work as a real check
//!   (`verify_unknown_user`). It is throttled per address and per account (`SignInThrottle`):
//!   guessing from many addresses slows the account's unknown sources only, never the owner's
//!   known address or browser (a known-device cookie set at each sign-in). Sign-up is limited per
//!   address, so it cannot be used to test names in bulk.

use crate::origin::same_origin;
use crate::respond::{html_response, public_error};
use axum::extract::{ConnectInfo, Form, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tilebag_accounts::glicko2::Rating as GlickoRating;
use tilebag_accounts::password::{
    check_new_password, hash_password, verify_password, verify_unknown_user, Verification,
};
use tilebag_accounts::session::{
    cookie_name, cookie_value, Cookie, Session, SessionCheck, SessionPolicy, Token, TokenHash,
    DEVICE_COOKIE, SESSION_COOKIE,
};
use tilebag_accounts::throttle::{address_key, Attempt, Decision, SignInThrottle, ThrottleConfig};
use tilebag_accounts::username::Username;
use tilebag_live::health::Monitored;
use tilebag_live::quota::PerAddress;
use tilebag_pages::accounts::{self as tpl, FormState, RatingRow};
use tilebag_store::accounts::{Account, NewAccount, SessionRow};
use tilebag_store::Store;

/// Sign-in records (addresses and names in the throttle, known browsers) kept before the
/// oldest are forgotten.
const MAX_REMEMBERED: usize = 50_000;

/// The CSRF token's purpose for every form of a signed-in player.
const FORM_PURPOSE: &str = "form";

/// What the account handlers share.
pub(crate) struct Accounts {
    store: Arc<Monitored>,
    policy: SessionPolicy,
    throttle: Mutex<SignInThrottle>,
    /// Known-device tokens' hashes, with the account each was issued for (kept in this process).
    devices: Mutex<HashMap<String, String>>,
    /// New accounts per address per minute.
    signups: PerAddress,
    /// Send cookies with `Secure` (and the `__Host-` names): the site is served over HTTPS.
    secure: bool,
}

impl Accounts {
    pub(crate) fn new(
        store: Arc<Monitored>,
        policy: SessionPolicy,
        secure: bool,
        signups_per_minute: u32,
    ) -> Accounts {
        Accounts {
            store,
            policy,
            throttle: Mutex::new(SignInThrottle::new(ThrottleConfig::default())),
            devices: Mutex::new(HashMap::new()),
            signups: PerAddress::new(signups_per_minute),
            secure,
        }
    }
}

/// How often sessions left idle past the policy's limit are deleted from the store (a session
/// is refused once idle whether or not it has been swept; this only keeps the table small).
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

impl Accounts {
    /// Deletes the sessions idle past the limit, now and every [`SWEEP_EVERY`], until shutdown.
    pub(crate) fn spawn_session_sweep(
        self: &Arc<Self>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        let a = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                }
                let before = now_ms().saturating_sub(a.policy.idle_timeout_ms);
                let _ = a
                    .store
                    .accounts()
                    .delete_sessions_idle_since(before as i64)
                    .await;
            }
        })
    }
}

type AccountsState = Arc<Accounts>;

pub(crate) fn router(accounts: Arc<Accounts>) -> Router {
    Router::new()
        .route("/signup", get(signup_page).post(signup))
        .route("/signin", get(signin_page).post(signin))
        .route("/signout", post(signout))
        .route("/signout-everywhere", post(signout_everywhere))
        .route("/account", get(account_page))
        .route("/account/password", post(change_password))
        .route("/api/me", get(me))
        .with_state(accounts)
}

fn now_ms() -> u64 {
    tilebag_store::wall_ms().max(0) as u64
}

/// A path on this site to go to after signing in (anything else goes to the account page).
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.into(),
        _ => "/account".into(),
    }
}

/// A refusal as a sentence on a page: capital first, full stop last.
fn sentence(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return text,
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

fn store_down() -> Response {
    public_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "The database cannot be reached just now; please try again in a moment.",
    )
}

fn cookie_header(c: &Cookie) -> (header::HeaderName, HeaderValue) {
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&c.to_string()).expect("cookies are ASCII"),
    )
}

/// The signed-in player of a request: their session (with its token) and account.
pub(crate) struct SignedIn {
    pub token: Token,
    pub account: Account,
}

/// The token in the request's cookie `base` (`SESSION_COOKIE`, `DEVICE_COOKIE`), if any.
fn cookie_token(a: &Accounts, headers: &HeaderMap, base: &str) -> Option<Token> {
    let name = cookie_name(base, a.secure);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|h| cookie_value(h, &name))
        .and_then(|v| Token::parse(v).ok())
}

/// Argon2id takes tens of milliseconds: off the async threads.
async fn hash_off_thread(password: &str) -> Option<String> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || hash_password(&password).ok())
        .await
        .ok()
        .flatten()
}

/// A refusal that says when to try again (`Retry-After`, in whole seconds).
fn retry_after(mut r: Response, secs: u64) -> Response {
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
    r
}

fn to_session(row: &SessionRow) -> Option<Session> {
    Some(Session {
        account_id: row.account_id as u64,
        token_hash: TokenHash::from_hex(&row.token_hash)?,
        created_ms: row.created_ms.max(0) as u64,
        last_seen_ms: row.last_seen_ms.max(0) as u64,
    })
}

/// Who is signed in, if anybody: the session must exist, be neither idle nor too old, and
/// belong to an account that is not banned. A session in use is touched now and then.
pub(crate) async fn signed_in(a: &Accounts, headers: &HeaderMap) -> Option<SignedIn> {
    let token = cookie_token(a, headers, SESSION_COOKIE)?;
    let hash = token.hash().to_hex();
    let (row, account) = a.store.accounts().session(&hash).await.ok()??;
    let now = now_ms();
    match a.policy.check(&to_session(&row)?, now) {
        SessionCheck::Valid { touch } => {
            if touch {
                let _ = a.store.accounts().touch_session(&hash, now as i64).await;
            }
        }
        SessionCheck::Expired(_) => {
            let _ = a.store.accounts().delete_session(&hash).await;
            return None;
        }
    }
    (!account.banned).then_some(SignedIn { token, account })
}

/// Starts a session for `account`: stores its hash, and answers with the cookies (the session,
/// and a known-device token for the throttle) and a redirect to `next`.
async fn start_session(a: &Accounts, account: &Account, next: &str) -> Response {
    let (Ok(token), Ok(device)) = (Token::generate(), Token::generate()) else {
        return public_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "No randomness to be had.",
        );
    };
    let now = now_ms();
    let session = Session::start(account.id as u64, &token, now);
    let row = SessionRow {
        token_hash: token.hash().to_hex(),
        account_id: account.id,
        created_ms: now as i64,
        last_seen_ms: now as i64,
    };
    if a.store.accounts().create_session(&row).await.is_err() {
        return store_down();
    }
    {
        let mut devices = a.devices.lock().expect("devices");
        if devices.len() >= MAX_REMEMBERED {
            // A browser forgotten here is still known by its address for 30 days.
            devices.clear();
        }
        devices.insert(device.hash().to_hex(), account.skeleton.clone());
    }
    let max_age = a.policy.cookie_max_age_s(&session, now);
    let year = 365 * 24 * 3600;
    (
        // Appended: two `Set-Cookie` headers (an array of pairs would keep only the last).
        AppendHeaders([
            cookie_header(&Cookie::session(&token, max_age, a.secure)),
            cookie_header(&Cookie::device(&device, year, a.secure)),
        ]),
        Redirect::to(next),
    )
        .into_response()
}

fn forbidden_origin() -> Response {
    public_error(
        StatusCode::FORBIDDEN,
        "This form was posted from another site, so it was refused.",
    )
}

#[derive(Deserialize, Default)]
struct NextQuery {
    next: Option<String>,
}

/// A sign-up or sign-in form, empty, going on to `next`.
fn empty_form(page: fn(&FormState<'_>) -> maud::Markup, next: &str) -> Response {
    html_response(
        StatusCode::OK,
        page(&FormState {
            next,
            ..FormState::default()
        }),
    )
}

async fn signup_page(Query(q): Query<NextQuery>) -> Response {
    empty_form(tpl::signup_page, &safe_next(q.next.as_deref()))
}

#[derive(Deserialize)]
struct SignupForm {
    username: String,
    password: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    next: String,
}

async fn signup(
    State(a): State<AccountsState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(f): Form<SignupForm>,
) -> Response {
    if !same_origin(&headers) {
        return forbidden_origin();
    }
    let next = safe_next(Some(&f.next));
    let again = |status: StatusCode, error: &str| {
        html_response(
            status,
            tpl::signup_page(&FormState {
                error: Some(error),
                username: &f.username,
                next: &next,
            }),
        )
    };
    let name = match Username::parse(f.username.trim()) {
        Ok(n) => n,
        Err(e) => return again(StatusCode::UNPROCESSABLE_ENTITY, &sentence(&e)),
    };
    if let Err(e) = check_new_password(&f.password, name.as_str()) {
        return again(StatusCode::UNPROCESSABLE_ENTITY, &sentence(&e));
    }
    let email = f.email.trim();
    if email.len() > 254 || (!email.is_empty() && !email.contains('@')) {
        return again(
            StatusCode::UNPROCESSABLE_ENTITY,
            "That email address does not look like one (it is optional: leave it empty).",
        );
    }
    if let Err(wait_s) = a.signups.take(peer.ip()) {
        let r = again(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many new accounts from this address; please try again in a minute.",
        );
        return retry_after(r, wait_s);
    }
    let Some(hash) = hash_off_thread(&f.password).await else {
        return public_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Could not hash the password.",
        );
    };
    let new = NewAccount {
        username: name.as_str().to_string(),
        skeleton: name.skeleton(),
        password_hash: hash,
        email: (!email.is_empty()).then(|| email.to_string()),
        created_ms: now_ms() as i64,
    };
    match a.store.accounts().create_account(&new).await {
        Ok(Some(id)) => match a.store.accounts().account_by_id(id).await {
            Ok(Some(account)) => start_session(&a, &account, &next).await,
            _ => store_down(),
        },
        // A name taken and a look-alike of one read the same (the skeleton is unique).
        Ok(None) => again(
            StatusCode::CONFLICT,
            &sentence(&tilebag_accounts::username::UsernameError::NotAvailable),
        ),
        Err(_) => store_down(),
    }
}

async fn signin_page(
    State(a): State<AccountsState>,
    Query(q): Query<NextQuery>,
    headers: HeaderMap,
) -> Response {
    let next = safe_next(q.next.as_deref());
    if signed_in(&a, &headers).await.is_some() {
        return Redirect::to(&next).into_response();
    }
    empty_form(tpl::signin_page, &next)
}

#[derive(Deserialize)]
struct SigninForm {
    username: String,
    password: String,
    #[serde(default)]
    next: String,
}

/// The one refusal for a wrong name or password: it never says which.
const WRONG: &str = "Wrong username or password.";

async fn signin(
    State(a): State<AccountsState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(f): Form<SigninForm>,
) -> Response {
    if !same_origin(&headers) {
        return forbidden_origin();
    }
    let next = safe_next(Some(&f.next));
    let typed = f.username.trim();
    let parsed = Username::parse(typed).ok();
    // The throttle's name for the account, whether or not it exists: its look-alike skeleton,
    // the key it is found by, so that `O5car` and `oscar` count against `Oscar` together.
    let key: String = match &parsed {
        Some(name) => name.skeleton(),
        None => typed.to_lowercase().chars().take(40).collect(),
    };
    let address = address_key(peer.ip());
    let known_device = cookie_token(&a, &headers, DEVICE_COOKIE).is_some_and(|d| {
        a.devices
            .lock()
            .expect("devices")
            .get(&d.hash().to_hex())
            .is_some_and(|owner| *owner == key)
    });
    let attempt = Attempt {
        address: &address,
        account: &key,
        known_device,
    };
    let now = now_ms();
    let decision = a.throttle.lock().expect("throttle").check(&attempt, now);
    if let Decision::Wait { retry_after_ms, .. } = decision {
        let secs = retry_after_ms.div_ceil(1000).max(1);
        let r = html_response(
            StatusCode::TOO_MANY_REQUESTS,
            tpl::signin_page(&FormState {
                error: Some(&format!(
                    "Too many sign-in attempts; please wait {secs} s and try again."
                )),
                username: typed,
                next: &next,
            }),
        );
        return retry_after(r, secs);
    }
    let account = match &parsed {
        Some(name) => match a
            .store
            .accounts()
            .account_by_skeleton(&name.skeleton())
            .await
        {
            Ok(found) => found,
            Err(_) => return store_down(),
        },
        None => None,
    };
    let password = f.password.clone();
    let stored = account.as_ref().map(|acc| acc.password_hash.clone());
    let verdict = tokio::task::spawn_blocking(move || match stored {
        Some(hash) => verify_password(&password, &hash).unwrap_or(Verification::Invalid),
        None => verify_unknown_user(&password),
    })
    .await
    .unwrap_or(Verification::Invalid);
    let ok = verdict.is_valid() && account.as_ref().is_some_and(|acc| !acc.banned);
    {
        let mut throttle = a.throttle.lock().expect("throttle");
        let now = now_ms();
        throttle.record(&attempt, ok, now);
        // What no longer matters is forgotten, so the maps stay small under any load.
        let (addresses, names) = throttle.len();
        if addresses + names > MAX_REMEMBERED {
            throttle.prune(now);
        }
    }
    match (ok, account) {
        (true, Some(account)) => {
            if let Verification::Valid { needs_rehash: true } = verdict {
                if let Some(h) = hash_off_thread(&f.password).await {
                    let _ = a.store.accounts().set_password(account.id, &h).await;
                }
            }
            start_session(&a, &account, &next).await
        }
        _ => html_response(
            StatusCode::UNAUTHORIZED,
            tpl::signin_page(&FormState {
                error: Some(WRONG),
                username: typed,
                next: &next,
            }),
        ),
    }
}

#[derive(Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// A signed-in player's form: from this site, with the session's CSRF token.
async fn checked(a: &Accounts, headers: &HeaderMap, csrf: &str) -> Result<SignedIn, Response> {
    if !same_origin(headers) {
        return Err(forbidden_origin());
    }
    let Some(me) = signed_in(a, headers).await else {
        return Err(Redirect::to("/signin?next=/account").into_response());
    };
    if !me.token.check_csrf(FORM_PURPOSE, csrf) {
        return Err(public_error(
            StatusCode::FORBIDDEN,
            "This form is out of date or did not come from your account page; please try again.",
        ));
    }
    Ok(me)
}

fn signed_out(a: &Accounts) -> Response {
    let removal = Cookie::removal(&cookie_name(SESSION_COOKIE, a.secure), a.secure)
        .expect("the session cookie's name is valid");
    ([cookie_header(&removal)], Redirect::to("/signin")).into_response()
}

async fn signout(
    State(a): State<AccountsState>,
    headers: HeaderMap,
    Form(f): Form<CsrfForm>,
) -> Response {
    let me = match checked(&a, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    if a.store
        .accounts()
        .delete_session(&me.token.hash().to_hex())
        .await
        .is_err()
    {
        return store_down();
    }
    signed_out(&a)
}

async fn signout_everywhere(
    State(a): State<AccountsState>,
    headers: HeaderMap,
    Form(f): Form<CsrfForm>,
) -> Response {
    let me = match checked(&a, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    if a.store
        .accounts()
        .delete_sessions_of(me.account.id, None)
        .await
        .is_err()
    {
        return store_down();
    }
    signed_out(&a)
}

#[derive(Deserialize)]
struct PasswordForm {
    #[serde(default)]
    csrf: String,
    current: String,
    new: String,
}

async fn change_password(
    State(a): State<AccountsState>,
    headers: HeaderMap,
    Form(f): Form<PasswordForm>,
) -> Response {
    let me = match checked(&a, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    let back = |m: Result<&str, &str>| {
        crate::respond::back("/account", m.map(String::from).map_err(String::from))
    };
    if let Err(e) = check_new_password(&f.new, &me.account.username) {
        return back(Err(&sentence(&e)));
    }
    let stored = me.account.password_hash.clone();
    let (current, new) = (f.current.clone(), f.new.clone());
    let result = tokio::task::spawn_blocking(move || {
        verify_password(&current, &stored)
            .ok()
            .filter(|v| v.is_valid())
            .map(|_| hash_password(&new))
    })
    .await;
    let hash = match result {
        Ok(Some(Ok(h))) => h,
        Ok(None) => return back(Err("The current password is not right; nothing changed.")),
        _ => {
            return public_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Could not hash the password.",
            )
        }
    };
    let this = me.token.hash().to_hex();
    let accounts = a.store.accounts();
    if accounts.set_password(me.account.id, &hash).await.is_err()
        || accounts
            .delete_sessions_of(me.account.id, Some(&this))
            .await
            .is_err()
    {
        return store_down();
    }
    back(Ok(
        "The password is changed, and every other session is signed out.",
    ))
}

#[derive(Deserialize, Default)]
struct AccountQuery {
    msg: Option<String>,
    err: Option<String>,
}

fn since(created_ms: i64) -> String {
    // `2026-11-27T07:23:47Z`: the day is enough.
    let text = tilebag_core::civil::utc_text(created_ms / 1000);
    text.split('T').next().unwrap_or("").to_string()
}

async fn rating_rows(a: &Accounts, account_id: i64) -> Vec<RatingRow> {
    let mut rows: Vec<RatingRow> = a
        .store
        .accounts()
        .ratings_of(account_id)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|r| {
            let g = GlickoRating::new(r.rating, r.deviation, r.volatility);
            RatingRow {
                category: r.category.replace('.', " · "),
                rating: g.display(),
                deviation: r.deviation.round() as i64,
                games: u64::from(r.games),
                provisional: g.is_provisional(),
            }
        })
        .collect();
    rows.sort_by(|x, y| x.category.cmp(&y.category));
    rows
}

async fn account_page(
    State(a): State<AccountsState>,
    headers: HeaderMap,
    Query(q): Query<AccountQuery>,
) -> Response {
    let Some(me) = signed_in(&a, &headers).await else {
        return Redirect::to("/signin?next=/account").into_response();
    };
    let ratings = rating_rows(&a, me.account.id).await;
    html_response(
        StatusCode::OK,
        tpl::account_page(
            &me.account.username,
            &since(me.account.created_ms),
            &me.token.csrf_token(FORM_PURPOSE),
            q.msg.as_deref(),
            q.err.as_deref(),
            &ratings,
        ),
    )
}

/// `GET /api/me`: the signed-in player (`{"username": …}`), or `{"username": null}`.
async fn me(State(a): State<AccountsState>, headers: HeaderMap) -> Response {
    let name = signed_in(&a, &headers).await.map(|m| m.account.username);
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(serde_json::json!({ "username": name })),
    )
        .into_response()
}
