//! `td player add|edit|withdraw|reinstate|eject`.

use super::common::{append, At};
use anyhow::Result;
use clap::Subcommand;
use tilebag_tournament::{Action, PlayerId};

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
        /// Career rated games before the event.
        #[arg(long)]
        games: Option<u32>,
    },
    /// Change a player's name, rating or member id.
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
        } => add(at, name, rating, id, games),
        PlayerCommand::Edit {
            at,
            player,
            name,
            rating,
            id,
        } => edit(at, player, name, rating, id),
        PlayerCommand::Withdraw { at, player, from } => withdraw(at, player, from),
        PlayerCommand::Reinstate { at, player } => reinstate(at, player),
        PlayerCommand::Eject { at, player, from } => eject(at, player, from),
    }
}

fn add(at: At, name: String, rating: i32, id: Option<String>, games: Option<u32>) -> Result<()> {
    let t = append(
        &at.event,
        Action::AddPlayer {
            division: at.division.clone(),
            name: name.clone(),
            rating,
            member_id: id.clone(),
            career_games: games,
            members: Vec::new(),
        },
    )?;
    let d = t.division(&at.division)?;
    let p = d.players.last().expect("just added");
    println!(
        "added {} rated {} to division {}",
        d.who(p.id),
        p.rating,
        d.name
    );
    Ok(())
}

fn edit(
    at: At,
    player: PlayerId,
    name: Option<String>,
    rating: Option<i32>,
    id: Option<String>,
) -> Result<()> {
    let t = append(
        &at.event,
        Action::EditPlayer {
            division: at.division.clone(),
            player,
            name: name.clone(),
            rating,
            member_id: id.clone(),
        },
    )?;
    let d = t.division(&at.division)?;
    println!(
        "{} rated {}",
        d.who(player),
        d.player(player).expect("edited").rating
    );
    Ok(())
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
