//! The moderators' page and actions (`/moderation`), for accounts whose role is moderator (the
//! first is made with `tilebag accounts moderator NAME`). A moderator deletes a reported message
//! (it disappears for everyone at once: the chat's streams are told), dismisses a report, mutes
//! an account for a number of minutes, bans one (it can neither sign in nor send, and its
//! sessions end), and lifts either. Every action is stored with its log entry in one
//! transaction (`ChatStore`): who, what, to whom, when. Forms are plain HTML from this site
//! (`Origin`) with a CSRF token derived from the session (purpose `moderation`); the chat panel
//! may post `delete` with `js=1` and is answered in JSON.

use crate::accounts::{signed_in, SignedIn};
use crate::chat::{
    account_named, now_ms, upper_first, utc_words, Chat, Refusal, MODERATION_PURPOSE,
};
use crate::origin::same_origin;
use crate::respond::{back, html_response, public_error};
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use std::sync::Arc;
use tilebag_pages::moderation::{self as tpl, LogRow, ReportRow};
use tilebag_store::accounts::Role;
use tilebag_store::{NewLogEntry, Store};

/// Reports and log entries shown.
const SHOWN: usize = 100;
/// The longest mute, in minutes (a year).
const MAX_MUTE_MINUTES: u64 = 525_600;

type ModState = Arc<Chat>;

pub(crate) fn router(chat: Arc<Chat>) -> Router {
    Router::new()
        .route("/moderation", get(page))
        .route("/moderation/delete", post(delete))
        .route("/moderation/dismiss", post(dismiss))
        .route("/moderation/sanction", post(sanction))
        .with_state(chat)
}

/// A room's name in words.
fn room_words(room: &str) -> String {
    match room.strip_prefix("game:").and_then(|r| r.rsplit_once(':')) {
        Some((id, "players")) => format!("game {id}, the players' chat"),
        Some((id, "watchers")) => format!("game {id}, the watchers' chat"),
        _ if room == "lobby" => "the lobby".to_string(),
        _ => room.to_string(),
    }
}

/// The moderator signed in, or the answer for anybody else (signed out: to the sign-in page;
/// signed in without the role: refused).
async fn moderator(c: &Chat, headers: &HeaderMap) -> Result<SignedIn, Response> {
    let Some(me) = signed_in(c.accounts(), headers).await else {
        return Err(Redirect::to("/signin?next=/moderation").into_response());
    };
    if me.account.role != Role::Moderator {
        return Err(public_error(
            StatusCode::FORBIDDEN,
            "This page is for the moderators.",
        ));
    }
    Ok(me)
}

#[derive(Deserialize, Default)]
struct PageQuery {
    msg: Option<String>,
    err: Option<String>,
}

async fn page(
    State(c): State<ModState>,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Response {
    let me = match moderator(&c, &headers).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    let chat = c.store().chat();
    let (reports, log) = match (
        chat.open_reports(SHOWN).await,
        chat.moderation_log(SHOWN).await,
    ) {
        (Ok(r), Ok(l)) => (r, l),
        _ => {
            return public_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "The database is down for a moment; please try again shortly.",
            )
        }
    };
    let reports: Vec<ReportRow> = reports
        .into_iter()
        .map(|r| ReportRow {
            report_id: r.id,
            message_id: r.message.id,
            room: room_words(&r.message.room),
            sender: r.message.sender_name,
            text: r.message.text,
            sent: utc_words(r.message.sent_ms.max(0) as u64),
            reporter: r.reporter_name,
            reason: r.reason,
        })
        .collect();
    let log: Vec<LogRow> = log
        .into_iter()
        .map(|l| LogRow {
            when: utc_words(l.at_ms.max(0) as u64),
            moderator: l.moderator_name,
            action: l.action,
            account: l.account_name,
            detail: l.detail,
        })
        .collect();
    html_response(
        StatusCode::OK,
        tpl::moderation_page(
            &me.account.username,
            &me.token.csrf_token(MODERATION_PURPOSE),
            q.msg.as_deref(),
            q.err.as_deref(),
            &reports,
            &log,
        ),
    )
}

/// A moderator's form: from this site, a moderator signed in, with the session's token.
async fn checked(c: &Chat, headers: &HeaderMap, csrf: &str) -> Result<SignedIn, Response> {
    if !same_origin(headers) {
        return Err(public_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site, so it was refused.",
        ));
    }
    let me = moderator(c, headers).await?;
    if !me.token.check_csrf(MODERATION_PURPOSE, csrf) {
        return Err(public_error(
            StatusCode::FORBIDDEN,
            "This form is out of date or did not come from the moderation page; please try again.",
        ));
    }
    Ok(me)
}

fn entry(
    me: &SignedIn,
    action: &str,
    account_id: Option<i64>,
    message_id: Option<i64>,
    detail: String,
) -> NewLogEntry {
    NewLogEntry {
        key: tilebag_live::ids::token(),
        moderator_id: me.account.id,
        action: action.to_string(),
        account_id,
        message_id,
        detail,
        at_ms: now_ms() as i64,
    }
}

fn store_down() -> Result<String, String> {
    Err("The database is down for a moment; please try again shortly.".to_string())
}

#[derive(Deserialize)]
struct DeleteForm {
    #[serde(default)]
    message: String,
    #[serde(default)]
    csrf: String,
    /// `1`: answer in JSON (the chat panel).
    #[serde(default)]
    js: String,
}

/// `POST /moderation/delete`: the message disappears for everyone, its reports are closed.
async fn delete(
    State(c): State<ModState>,
    headers: HeaderMap,
    Form(f): Form<DeleteForm>,
) -> Response {
    let me = match checked(&c, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    let outcome = delete_message(&c, &me, &f.message).await;
    if f.js == "1" {
        return match outcome {
            Ok(m) => Json(serde_json::json!({ "ok": m })).into_response(),
            Err(e) => Refusal::new(StatusCode::BAD_REQUEST, e).into_response(),
        };
    }
    back("/moderation", outcome)
}

async fn delete_message(c: &Chat, me: &SignedIn, id: &str) -> Result<String, String> {
    let Ok(id) = id.trim().parse::<i64>() else {
        return Err("There is no such message.".to_string());
    };
    let chat = c.store().chat();
    let Ok(found) = chat.message(id).await else {
        return store_down();
    };
    let Some(m) = found else {
        return Err("There is no such message.".to_string());
    };
    let log = entry(
        me,
        "delete",
        Some(m.sender_id),
        Some(id),
        format!("“{}” in {}", m.text, room_words(&m.room)),
    );
    match chat.delete_message(id, &log).await {
        Ok(true) => {
            c.push_deleted(&m.room, id);
            Ok(format!("{}'s message was deleted.", m.sender_name))
        }
        Ok(false) => Err("That message was deleted already.".to_string()),
        Err(_) => store_down(),
    }
}

#[derive(Deserialize)]
struct DismissForm {
    #[serde(default)]
    report: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /moderation/dismiss`: the report is closed; the message stays.
async fn dismiss(
    State(c): State<ModState>,
    headers: HeaderMap,
    Form(f): Form<DismissForm>,
) -> Response {
    let me = match checked(&c, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    let Ok(id) = f.report.trim().parse::<i64>() else {
        return back("/moderation", Err("There is no such report.".to_string()));
    };
    let log = entry(&me, "dismiss", None, None, format!("report {id}"));
    let outcome = match c.store().chat().dismiss_report(id, &log).await {
        Ok(true) => Ok("The report was dismissed.".to_string()),
        Ok(false) => Err("That report is closed already.".to_string()),
        Err(_) => store_down(),
    };
    back("/moderation", outcome)
}

#[derive(Deserialize)]
struct SanctionForm {
    #[serde(default)]
    user: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    minutes: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /moderation/sanction`: mute for some minutes, ban, or lift either.
async fn sanction(
    State(c): State<ModState>,
    headers: HeaderMap,
    Form(f): Form<SanctionForm>,
) -> Response {
    let me = match checked(&c, &headers, &f.csrf).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    back("/moderation", apply_sanction(&c, &me, &f).await)
}

async fn apply_sanction(c: &Chat, me: &SignedIn, f: &SanctionForm) -> Result<String, String> {
    let target = match account_named(c.store(), &f.user).await {
        Ok(a) => a,
        Err(_) => return Err(format!("There is no player named “{}”.", f.user.trim())),
    };
    if target.id == me.account.id {
        return Err("A moderator cannot sanction their own account.".to_string());
    }
    let now = now_ms();
    let name = &target.username;
    let (muted, banned, detail, done) = match f.action.as_str() {
        "mute" => {
            let minutes = match f.minutes.trim().parse::<u64>() {
                Ok(m) if (1..=MAX_MUTE_MINUTES).contains(&m) => m,
                _ => {
                    return Err(format!(
                        "A mute lasts 1 to {MAX_MUTE_MINUTES} minutes (not “{}”).",
                        f.minutes.trim()
                    ))
                }
            };
            let until = now + minutes * 60_000;
            (
                Some(until as i64),
                target.banned,
                format!("for {minutes} minutes, until {}", utc_words(until)),
                format!("{name} is muted until {}.", utc_words(until)),
            )
        }
        "unmute" => (
            None,
            target.banned,
            String::new(),
            format!("{name} may chat again."),
        ),
        "ban" => (
            target.muted_until_ms,
            true,
            String::new(),
            format!("{name} is banned: they cannot sign in or send."),
        ),
        "unban" => (
            target.muted_until_ms,
            false,
            String::new(),
            format!("{name}'s ban is lifted."),
        ),
        other => {
            return Err(upper_first(&format!(
                "the action is mute, unmute, ban or unban (not “{other}”)"
            )))
        }
    };
    let log = entry(me, &f.action, Some(target.id), None, detail);
    match c
        .store()
        .chat()
        .sanction(target.id, muted, banned, &log)
        .await
    {
        Ok(true) => {}
        Ok(false) => return Err(format!("There is no player named “{}”.", f.user.trim())),
        Err(_) => return store_down(),
    }
    if banned {
        // Their sessions end now (a banned account's session is refused anyway).
        let _ = c
            .store()
            .accounts()
            .delete_sessions_of(target.id, None)
            .await;
    }
    Ok(done)
}
