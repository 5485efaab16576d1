//! Pairing a round: `td pair` (by the schedule or a method), `td pair-manual`, `td unpair` and
//! `td swap` (who goes first).

use super::common::{append, At};
use anyhow::{anyhow, Result};
use clap::Args;
use tilebag_events::EventFile;
use tilebag_tournament::tables::pairings_table;
use tilebag_tournament::{Action, Method, PlayerId, Tournament};

// The arguments of `td pair`.
#[derive(Args)]
pub struct PairArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    /// A method code (IF, SW, KOTH, RR, AD, RAND, …) instead of the schedule's.
    #[arg(long)]
    method: Option<String>,
    /// The round whose standings to pair on (default: the schedule's).
    #[arg(long)]
    based_on: Option<u32>,
    /// Print the pairings without posting them.
    #[arg(long)]
    dry_run: bool,
}

// The arguments of `td pair-manual`.
#[derive(Args)]
pub struct PairManualArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    /// The opponent's number, or `bye`.
    opponent: String,
}

// The arguments of `td unpair`.
#[derive(Args)]
pub struct UnpairArgs {
    #[command(flatten)]
    at: At,
    round: u32,
}

// The arguments of `td swap`.
#[derive(Args)]
pub struct SwapArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
}

pub fn pair(args: PairArgs) -> Result<()> {
    let PairArgs {
        at,
        round,
        method,
        based_on,
        dry_run,
    } = args;
    let method = method
        .map(|m| {
            Method::from_code(&m).ok_or_else(|| {
                anyhow!(
                    "unknown pairing method {m:?}; codes: RR KOTH SW IF AD RAND LIT3 PO FIN MAN"
                )
            })
        })
        .transpose()?;
    let mut store = EventFile::open(&at.event)?;
    let mut notes = Vec::new();
    let build = |t: &Tournament, notes: &mut Vec<String>| -> Result<Vec<Action>> {
        let (a, n) = t.pair(&at.division, round, method, based_on)?;
        *notes = n;
        Ok(vec![a])
    };
    let t = if dry_run {
        let mut t = store.load()?;
        let actions = build(&t, &mut notes).map_err(|e| anyhow!("refused: {e:#}"))?;
        for a in actions {
            t.apply(&a).map_err(|e| anyhow!("refused: {e}"))?;
        }
        t
    } else {
        store.append(|t| build(t, &mut notes))?
    };
    let d = t.division(&at.division)?;
    let r = d.round(round).expect("just paired");
    println!(
        "Division {} round {} ({}, based on round {}){}",
        d.name,
        round,
        r.method,
        r.based_on,
        if dry_run {
            " — dry run, not posted"
        } else {
            ""
        }
    );
    print!("{}", pairings_table(d, round).text());
    for n in notes {
        println!("note: {n}");
    }
    Ok(())
}

pub fn pair_manual(args: PairManualArgs) -> Result<()> {
    let PairManualArgs {
        at,
        round,
        player,
        opponent,
    } = args;
    let opp = if opponent.eq_ignore_ascii_case("bye") {
        None
    } else {
        Some(opponent.parse::<PlayerId>().map_err(|_| {
            anyhow!("the opponent must be a player number or `bye`, not {opponent:?}")
        })?)
    };
    let mut store = EventFile::open(&at.event)?;
    let t = store.append(|t| Ok(vec![t.manual_pair(&at.division, round, player, opp)?]))?;
    let d = t.division(&at.division)?;
    print!("{}", pairings_table(d, round).text());
    Ok(())
}

pub fn unpair(args: UnpairArgs) -> Result<()> {
    let UnpairArgs { at, round } = args;
    append(
        &at.event,
        Action::Unpair {
            division: at.division.clone(),
            round,
        },
    )?;
    println!("division {}: round {round} unpaired", at.division);
    Ok(())
}

pub fn swap(args: SwapArgs) -> Result<()> {
    let SwapArgs { at, round, player } = args;
    let t = append(
        &at.event,
        Action::SwapSeats {
            division: at.division.clone(),
            round,
            player,
        },
    )?;
    print!(
        "{}",
        pairings_table(t.division(&at.division)?, round).text()
    );
    Ok(())
}
