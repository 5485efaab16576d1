//! `td player add|edit|withdraw|reinstate|eject`.

use super::common::{append, At};
use anyhow::{bail, Result};
use clap::Subcommand;
use tilebag_events::EventFile;
use tilebag_tournament::{Action, Division, PlayerId};

#[derive(Subcommand)]
pub enum PlayerCommand {
    /// Add a player ("Surname, Given") with a rating; prints the player's number.
    Add {
        #[command(flatten)]
        at: At,
        name: String,
        rating: i32,
        /// Member id.
        #[arg(long)]
        id: Option<String>,
        /// Career rated games before the event (unknown, the ratings take 100, as tsh does).
        #[arg(long)]
        games: Option<u32>,
        /// The player's class (tsh's `class` field, one word), for class prizes by class.
        #[arg(long)]
        class: Option<String>,
    },
    /// Change a player's name, rating, member id or class.
    Edit {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        rating: Option<i32>,
        #[arg(long)]
        id: Option<String>,
        /// The player's class (tsh's `class` field, one word); an empty one takes it away.
        #[arg(long)]
        class: Option<String>,
    },
    /// The player misses every round from --from on.
    Withdraw {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        from: u32,
    },
    /// The player may be paired again.
    Reinstate {
        #[command(flatten)]
        at: At,
        player: PlayerId,
    },
    /// WESPA 6.2.4(a): eject the player (cheating, abuse) from round --from on. Their earlier
    /// games become void in a round robin, otherwise 150-point wins for their opponents (unless
    /// an opponent did better); they rank last and leave the pairings.
    Eject {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        from: u32,
    },
}

pub fn run(command: PlayerCommand) -> Result<()> {
    match command {
        PlayerCommand::Add {
            at,
            name,
            rating,
            id,
            games,
            class,
        } => add(at, name, rating, id, games, class),
        PlayerCommand::Edit {
            at,
            player,
            name,
            rating,
            id,
            class,
        } => edit(at, player, Details { name, rating, id }, class),
        PlayerCommand::Withdraw { at, player, from } => withdraw(at, player, from),
        PlayerCommand::Reinstate { at, player } => reinstate(at, player),
        PlayerCommand::Eject { at, player, from } => eject(at, player, from),
    }
}

fn add(
    at: At,
    name: String,
    rating: i32,
    id: Option<String>,
    games: Option<u32>,
    class: Option<String>,
) -> Result<()> {
    let add = Action::AddPlayer {
        division: at.division.clone(),
        name: name.clone(),
        rating,
        member_id: id.clone(),
        career_games: games,
        members: Vec::new(),
    };
    // The player and their class go into the log together.
    let t = EventFile::open(&at.event)?.append(|t| {
        let mut actions = vec![add.clone()];
        if let Some(c) = &class {
            let mut after = t.clone();
            after.apply(&add)?;
            let d = after.division(&at.division)?;
            let p = d.players.last().expect("just added").id;
            actions.push(d.class_action(p, Some(c))?);
        }
        Ok(actions)
    })?;
    let d = t.division(&at.division)?;
    let p = d.players.last().expect("just added");
    println!(
        "added {} rated {}{} to division {}",
        d.who(p.id),
        p.rating,
        class_words(d, p.id),
        d.name
    );
    Ok(())
}

/// What `td player edit` changes besides the class.
struct Details {
    name: Option<String>,
    rating: Option<i32>,
    id: Option<String>,
}

fn edit(at: At, player: PlayerId, details: Details, class: Option<String>) -> Result<()> {
    let Details { name, rating, id } = details;
    if name.is_none() && rating.is_none() && id.is_none() && class.is_none() {
        bail!("say what to change: --name, --rating, --id or --class");
    }
    let edit = (name.is_some() || rating.is_some() || id.is_some()).then(|| Action::EditPlayer {
        division: at.division.clone(),
        player,
        name,
        rating,
        member_id: id,
    });
    let t = EventFile::open(&at.event)?.append(|t| {
        let mut actions: Vec<Action> = edit.into_iter().collect();
        if let Some(c) = &class {
            let d = t.division(&at.division)?;
            actions.push(d.class_action(player, Some(c))?);
        }
        Ok(actions)
    })?;
    let d = t.division(&at.division)?;
    println!(
        "{} rated {}{}",
        d.who(player),
        d.player(player).expect("edited").rating,
        class_words(d, player)
    );
    Ok(())
}

/// `, class B` for a player with a class, else nothing.
fn class_words(d: &Division, p: PlayerId) -> String {
    tilebag_tournament::prizes::tsh_class(d, p)
        .map(|c| format!(", class {c}"))
        .unwrap_or_default()
}

fn withdraw(at: At, player: PlayerId, from: u32) -> Result<()> {
    let t = append(
        &at.event,
        Action::Withdraw {
            division: at.division.clone(),
            player,
            from_round: from,
        },
    )?;
    let d = t.division(&at.division)?;
    println!("{} withdrawn from round {from}", d.who(player));
    Ok(())
}

fn reinstate(at: At, player: PlayerId) -> Result<()> {
    let t = append(
        &at.event,
        Action::Reinstate {
            division: at.division.clone(),
            player,
        },
    )?;
    println!("{} reinstated", t.division(&at.division)?.who(player));
    Ok(())
}

fn eject(at: At, player: PlayerId, from: u32) -> Result<()> {
    let t = append(
        &at.event,
        Action::Eject {
            division: at.division.clone(),
            player,
            from_round: from,
        },
    )?;
    let d = t.division(&at.division)?;
    let changed = d
        .rounds
        .iter()
        .flat_map(|r| r.pairings.iter())
        .filter_map(|p| p.game())
        .filter(|g| {
            g.involves(player)
                && g.corrections
                    .last()
                    .is_some_and(|c| c.note.starts_with("WESPA 6.2.4"))
        })
        .count();
    println!(
        "{} ejected from round {from} (WESPA 6.2.4); {changed} earlier result(s) changed",
        d.who(player)
    );
    Ok(())
}
