//! The moderators' page (`/moderation`): the reports nobody has dealt with, each with its
//! message and the actions on it (delete the message, dismiss the report, mute or ban its
//! sender), a form to act on any account by name, and the log of every action. The handlers in
//! the server's `moderation.rs` decide; this only lays it out. Every form carries the
//! moderator's CSRF token and works without script.

use super::public_layout;
use maud::{html, Markup};

/// A report, as the page shows it.
pub struct ReportRow {
    pub report_id: i64,
    pub message_id: i64,
    /// Where it was said, in words (`the lobby`, `game abc123, the watchers' chat`).
    pub room: String,
    pub sender: String,
    pub text: String,
    /// When it was said, `2026-11-27 12:00 UTC`.
    pub sent: String,
    pub reporter: String,
    pub reason: String,
}

/// An entry of the moderators' log.
pub struct LogRow {
    pub when: String,
    pub moderator: String,
    /// `delete`, `mute`, `unmute`, `ban`, `unban`, `dismiss`.
    pub action: String,
    pub account: Option<String>,
    pub detail: String,
}

fn sanction_form(csrf: &str, user: &str, suffix: &str) -> Markup {
    html! {
        form.inline method="post" action="/moderation/sanction" {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="user" value=(user);
            label { "Minutes " input id=(format!("minutes-{suffix}")) type="number" name="minutes" min="1" max="525600" value="60" inputmode="numeric" size="6"; }
            button name="action" value="mute" { "Mute " (user) }
            button name="action" value="ban" { "Ban " (user) }
        }
    }
}

/// `GET /moderation`.
pub fn moderation_page(
    moderator: &str,
    csrf: &str,
    message: Option<&str>,
    error: Option<&str>,
    reports: &[ReportRow],
    log: &[LogRow],
) -> Markup {
    public_layout(
        "Moderation",
        html! {
            @if let Some(m) = message { p.flash.ok #message role="status" { (m) } }
            @if let Some(e) = error { p.flash.err #error role="alert" { (e) } }
            p { "Signed in as " strong { (moderator) } ", moderator. Every action here is logged with your name." }
            h2 #reports-heading { "Reports" }
            @if reports.is_empty() {
                p #no-reports { "No open reports." }
            } @else {
                ul.reports #reports aria-labelledby="reports-heading" {
                    @for r in reports {
                        li.report id=(format!("report-{}", r.report_id)) {
                            p {
                                strong { (r.sender) } " in " (r.room) " at " (r.sent) ":"
                            }
                            blockquote.message { (r.text) }
                            p {
                                "Reported by " (r.reporter)
                                @if !r.reason.is_empty() { ": “" (r.reason) "”" }
                            }
                            form.inline method="post" action="/moderation/delete" {
                                input type="hidden" name="csrf" value=(csrf);
                                input type="hidden" name="message" value=(r.message_id);
                                button.danger { "Delete the message" }
                            }
                            form.inline method="post" action="/moderation/dismiss" {
                                input type="hidden" name="csrf" value=(csrf);
                                input type="hidden" name="report" value=(r.report_id);
                                button { "Dismiss the report" }
                            }
                            (sanction_form(csrf, &r.sender, &r.report_id.to_string()))
                        }
                    }
                }
            }
            h2 { "An account" }
            form method="post" action="/moderation/sanction" #account-form {
                input type="hidden" name="csrf" value=(csrf);
                label { "Player " input #account-user type="text" name="user" required autocomplete="off" maxlength="40"; }
                label { "Minutes (for a mute) " input #account-minutes type="number" name="minutes" min="1" max="525600" value="60" inputmode="numeric"; }
                div.actions {
                    button name="action" value="mute" { "Mute" }
                    button name="action" value="unmute" { "Lift the mute" }
                    button name="action" value="ban" { "Ban" }
                    button name="action" value="unban" { "Lift the ban" }
                }
            }
            p { "A muted player reads but cannot send. A banned player cannot sign in or send; their sessions end at once." }
            h2 #log-heading { "Log" }
            @if log.is_empty() {
                p { "Nothing yet." }
            } @else {
                div.table-scroll tabindex="0" role="region" aria-label="The moderators’ log" {
                    table #log aria-labelledby="log-heading" {
                        thead { tr { th scope="col" { "When" } th scope="col" { "Moderator" } th scope="col" { "Action" } th scope="col" { "Account" } th scope="col" { "Detail" } } }
                        tbody {
                            @for l in log {
                                tr {
                                    td { (l.when) }
                                    td { (l.moderator) }
                                    td { (l.action) }
                                    td { @if let Some(a) = &l.account { (a) } }
                                    td { (l.detail) }
                                }
                            }
                        }
                    }
                }
            }
        },
        None,
    )
}
