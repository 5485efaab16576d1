//! `tilebag accounts`: what the server's operator does to accounts from a terminal. Today one
//! thing: make an account a moderator (or a player again), which is how the first moderator is
//! made; moderators then act from the `/moderation` page.

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use tilebag_accounts::username::Username;
use tilebag_server::store::{self, Role};

#[derive(Subcommand)]
pub enum AccountsCommand {
    /// Make an account a moderator (it may then delete messages and mute or ban accounts on
    /// `/moderation`), or with `--remove` a player again.
    Moderator {
        /// The account's username (look-alikes count: `O5car` finds `Oscar`).
        name: String,
        /// The server's database: a SQLite file, or a `postgres://` URL.
        #[arg(long, default_value = "tilebag.db")]
        database: String,
        /// Make it a player again.
        #[arg(long)]
        remove: bool,
    },
}

pub fn run(command: AccountsCommand) -> Result<()> {
    match command {
        AccountsCommand::Moderator {
            name,
            database,
            remove,
        } => moderator(&name, &database, remove),
    }
}

fn moderator(name: &str, database: &str, remove: bool) -> Result<()> {
    let parsed = Username::parse(name.trim()).map_err(|e| anyhow::anyhow!("{name:?}: {e}"))?;
    if !database.contains("://") && !std::path::Path::new(database).exists() {
        bail!("{database}: no such database (name the file `tilebag serve --database` uses)");
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    rt.block_on(async {
        let s = store::open(database)
            .await
            .with_context(|| format!("cannot open {}", store::redact_url(database)))?;
        let Some(account) = s.accounts().account_by_skeleton(&parsed.skeleton()).await? else {
            bail!(
                "there is no account named {name:?} in {}",
                store::redact_url(database)
            );
        };
        let role = if remove {
            Role::Player
        } else {
            Role::Moderator
        };
        s.accounts().set_role(account.id, role).await?;
        println!(
            "{} is {} now",
            account.username,
            if remove { "a player" } else { "a moderator" }
        );
        Ok(())
    })
}
