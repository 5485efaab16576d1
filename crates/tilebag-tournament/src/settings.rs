//! Division settings as a director types them (`tilebag td division set`, the director's pages):
//! a key and a value, read into a [`Setting`], and each setting's current value as text.

use tilebag_core::ruleset::FirstPlayerRule;

use crate::action::Setting;
use crate::model::{
    ByeFirsts, ClassPrizes, Division, FirstsPolicy, FlightCap, FontesDraw, Format, GibsonConfig,
    RatingSystem, TieBreak, WithdrawnResult,
};

/// The keys [`Setting::parse`] knows, in the order a settings page lists them.
pub const KEYS: [&str; 18] = [
    "schedule",
    "bye-spread",
    "forfeit-spread",
    "resignation-margin",
    "spread-cap",
    "tie-breaks",
    "gibson",
    "firsts",
    "withdrawn",
    "fontes",
    "ratings",
    "format",
    "winner-submits",
    "rules",
    "max-repeats",
    "prize-bands",
    "class-prizes",
    "flight-cap",
];

impl Setting {
    /// The key a director types for this setting (one of [`KEYS`]).
    pub fn key(&self) -> &'static str {
        match self {
            Setting::Schedule(_) => "schedule",
            Setting::ByeSpread(_) => "bye-spread",
            Setting::ForfeitSpread(_) => "forfeit-spread",
            Setting::ResignationMargin(_) => "resignation-margin",
            Setting::SpreadCap(_) => "spread-cap",
            Setting::TieBreaks(_) => "tie-breaks",
            Setting::Gibson(_) => "gibson",
            Setting::Firsts(_) => "firsts",
            Setting::WithdrawnResult(_) => "withdrawn",
            Setting::Fontes(_) => "fontes",
            Setting::Ratings(_) => "ratings",
            Setting::Format(_) => "format",
            Setting::WinnerSubmits(_) => "winner-submits",
            Setting::Rules(_) => "rules",
            Setting::MaxRepeats(_) => "max-repeats",
            Setting::PrizeBands(_) => "prize-bands",
            Setting::ClassPrizes(_) => "class-prizes",
            Setting::FlightCap(_) => "flight-cap",
        }
    }

    /// Reads `key value` as the director types it; `d` supplies the parts of a setting the value
    /// leaves out (the firsts policy is changed one part at a time).
    pub fn parse(d: &Division, key: &str, value: &str) -> Result<Setting, String> {
        let int = || -> Result<i32, String> {
            value
                .parse::<i32>()
                .map_err(|_| format!("{key} needs a whole number, not {value:?}"))
        };
        let v = value.trim().to_ascii_lowercase();
        Ok(match key {
            "schedule" => Setting::Schedule(value.to_string()),
            "bye-spread" => Setting::ByeSpread(int()?),
            "forfeit-spread" => Setting::ForfeitSpread(int()?),
            "resignation-margin" => Setting::ResignationMargin(int()?),
            "spread-cap" => Setting::SpreadCap(if v == "none" || v == "off" {
                None
            } else {
                Some(int()?)
            }),
            "tie-breaks" => Setting::TieBreaks(
                v.split(',')
                    .map(|k| {
                        Ok(match k.trim() {
                            "wins" => TieBreak::Wins,
                            "losses" => TieBreak::Losses,
                            "spread" => TieBreak::Spread,
                            "rating" => TieBreak::Rating,
                            "points-for" | "points" => TieBreak::PointsFor,
                            x => return Err(format!(
                                "unknown tie-break {x:?}: wins, losses, spread, rating, points-for"
                            )),
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()?,
            ),
            "gibson" => Setting::Gibson(if v == "off" || v == "none" {
                None
            } else {
                let (s, p) = v
                    .split_once(':')
                    .ok_or("gibson takes SPREAD:PLACES (e.g. 250:3) or off")?;
                Some(GibsonConfig {
                    spread_per_round: s.parse().map_err(|_| format!("gibson SPREAD must be a number, not {s:?}"))?,
                    prize_places: p.parse().map_err(|_| format!("gibson PLACES must be a number, not {p:?}"))?,
                })
            }),
            "firsts" => {
                let mut policy: FirstsPolicy = d.config.firsts;
                for (i, tok) in v.split(',').map(str::trim).enumerate() {
                    match (i, tok) {
                        (0, "naspa" | "sanspa" | "fewer-firsts") => {
                            policy.rule = FirstPlayerRule::FewerFirstsThenDraw
                        }
                        (0, "wespa" | "balanced") => policy.rule = FirstPlayerRule::BalancedThenDraw,
                        (0, "draw" | "tile-draw") => policy.rule = FirstPlayerRule::TileDraw,
                        (_, "byes=alternate") => policy.byes = ByeFirsts::Alternate,
                        (_, "byes=ignore") => policy.byes = ByeFirsts::Ignore,
                        (_, "forfeits=alternate") => policy.forfeiter_alternates = true,
                        (_, "forfeits=neither") => policy.forfeiter_alternates = false,
                        _ => return Err(format!("firsts takes naspa|wespa|draw[,byes=alternate|ignore][,forfeits=alternate|neither], not {value:?}")),
                    }
                }
                Setting::Firsts(policy)
            }
            "withdrawn" => Setting::WithdrawnResult(match v.as_str() {
                "forfeit" => WithdrawnResult::ForfeitLoss,
                "void" => WithdrawnResult::Void,
                _ => return Err("withdrawn takes forfeit or void".to_string()),
            }),
            "winner-submits" => Setting::WinnerSubmits(match v.as_str() {
                "yes" | "on" | "true" => true,
                "no" | "off" | "false" => false,
                _ => return Err("winner-submits takes yes or no".to_string()),
            }),
            "max-repeats" => Setting::MaxRepeats(if v == "none" || v == "off" {
                None
            } else {
                Some(v.parse::<u32>().map_err(|_| {
                    format!("max-repeats needs a whole number of repeats (0: none) or none, not {value:?}")
                })?)
            }),
            "prize-bands" => Setting::PrizeBands(if v == "none" || v == "off" {
                None
            } else {
                match v.parse::<u32>() {
                    Ok(n) if n > 0 => Some(n),
                    _ => {
                        return Err(format!(
                            "prize-bands needs the number of places paid (1 or more) or none, not {value:?}"
                        ))
                    }
                }
            }),
            "class-prizes" => Setting::ClassPrizes(ClassPrizes::parse(value)?),
            "flight-cap" => Setting::FlightCap(match v.as_str() {
                "tsh" => FlightCap::Tsh,
                "nsc" => FlightCap::Nsc,
                "nsc2008" => FlightCap::Nsc2008,
                "none" => FlightCap::None,
                _ => return Err("flight-cap takes tsh, nsc, nsc2008 or none".to_string()),
            }),
            // The organiser's choices: KEY=VALUE[,KEY=VALUE...], or none.
            "rules" => Setting::Rules(if v == "none" || v.is_empty() {
                Vec::new()
            } else {
                v.split(',').map(|r| r.trim().to_string()).collect()
            }),
            "fontes" => Setting::Fontes(match v.as_str() {
                "random" => FontesDraw::Random,
                "snaked" => FontesDraw::Snaked,
                _ => return Err("fontes takes random or snaked".to_string()),
            }),
            "ratings" => Setting::Ratings(match v.as_str() {
                "naspa" => RatingSystem::Naspa { club: false },
                "naspa-club" => RatingSystem::Naspa { club: true },
                "wespa" => RatingSystem::Wespa,
                "none" => RatingSystem::None,
                _ => return Err("ratings takes naspa, naspa-club, wespa or none".to_string()),
            }),
            "format" => Setting::Format(match v.as_str() {
                "individual" => Format::Individual,
                "literacy-2018" => Format::Literacy2018Teams,
                _ => return Err("format takes individual or literacy-2018".to_string()),
            }),
            _ => return Err(format!(
                "unknown setting {key:?}: schedule, bye-spread, forfeit-spread, resignation-margin, \
                 spread-cap, tie-breaks, gibson, firsts, withdrawn, fontes, ratings, format, winner-submits, rules, \
                 max-repeats, prize-bands, class-prizes, flight-cap"
            )),
        })
    }
}

/// The division's current value of each of [`KEYS`], written as [`Setting::parse`] reads it.
pub fn current(d: &Division) -> Vec<(&'static str, String)> {
    let c = &d.config;
    let firsts = format!(
        "{},byes={},forfeits={}",
        match c.firsts.rule {
            FirstPlayerRule::FewerFirstsThenDraw => "naspa",
            FirstPlayerRule::BalancedThenDraw => "wespa",
            FirstPlayerRule::TileDraw => "draw",
        },
        match c.firsts.byes {
            ByeFirsts::Alternate => "alternate",
            ByeFirsts::Ignore => "ignore",
        },
        if c.firsts.forfeiter_alternates {
            "alternate"
        } else {
            "neither"
        }
    );
    let tie_breaks = c
        .tie_breaks
        .iter()
        .map(|t| match t {
            TieBreak::Wins => "wins",
            TieBreak::Losses => "losses",
            TieBreak::Spread => "spread",
            TieBreak::Rating => "rating",
            TieBreak::PointsFor => "points-for",
        })
        .collect::<Vec<_>>()
        .join(",");
    let value = |key: &str| -> String {
        match key {
            "schedule" => d.schedule.text.clone(),
            "bye-spread" => c.bye_spread.to_string(),
            "forfeit-spread" => c.forfeit_spread.to_string(),
            "resignation-margin" => c.resignation_margin.to_string(),
            "spread-cap" => c.spread_cap.map_or("none".into(), |x| x.to_string()),
            "tie-breaks" => tie_breaks.clone(),
            "gibson" => c.gibson.map_or("off".into(), |g| {
                format!("{}:{}", g.spread_per_round, g.prize_places)
            }),
            "firsts" => firsts.clone(),
            "withdrawn" => match c.withdrawn_result {
                WithdrawnResult::ForfeitLoss => "forfeit".into(),
                WithdrawnResult::Void => "void".into(),
            },
            "fontes" => match c.fontes {
                FontesDraw::Random => "random".into(),
                FontesDraw::Snaked => "snaked".into(),
            },
            "ratings" => match c.ratings {
                RatingSystem::Naspa { club: false } => "naspa".into(),
                RatingSystem::Naspa { club: true } => "naspa-club".into(),
                RatingSystem::Wespa => "wespa".into(),
                RatingSystem::None => "none".into(),
            },
            "format" => match c.format {
                Format::Individual => "individual".into(),
                Format::Literacy2018Teams => "literacy-2018".into(),
            },
            "winner-submits" => if c.winner_submits { "yes" } else { "no" }.into(),
            "max-repeats" => c.max_repeats.map_or("none".into(), |x| x.to_string()),
            "prize-bands" => c.prize_bands.map_or("none".into(), |x| x.to_string()),
            "class-prizes" => c.class_prizes.text(),
            "flight-cap" => c.flight_cap.name().into(),
            "rules" => {
                if c.rules.is_empty() {
                    "none".into()
                } else {
                    c.rules.join(",")
                }
            }
            _ => String::new(),
        }
    };
    KEYS.iter().map(|k| (*k, value(k))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Tournament};

    #[test]
    fn every_current_value_reads_back_as_the_same_setting() {
        for preset in ["naspa-2013", "wespa-2010", "sanspa-1999", "literacy-2018"] {
            let mut t = Tournament::default();
            t.apply(&Action::CreateTournament {
                name: "T".into(),
                date: None,
            })
            .unwrap();
            t.apply(&Action::AddDivision {
                division: "A".into(),
                preset: preset.into(),
                schedule: "IF:3 SW:6 KOTH:1".into(),
                seed: 1,
            })
            .unwrap();
            t.apply(&Action::Configure {
                division: "A".into(),
                setting: Setting::Gibson(Some(GibsonConfig {
                    spread_per_round: 250,
                    prize_places: 3,
                })),
            })
            .unwrap();
            let d = t.division("A").unwrap().clone();
            for (key, value) in current(&d) {
                let s = Setting::parse(&d, key, &value)
                    .unwrap_or_else(|e| panic!("{preset}: {key} {value}: {e}"));
                let mut again = t.clone();
                again
                    .apply(&Action::Configure {
                        division: "A".into(),
                        setting: s,
                    })
                    .unwrap();
                assert_eq!(again, t, "{preset}: {key} = {value} changed the division");
            }
        }
    }

    #[test]
    fn bad_values_name_the_key() {
        let mut t = Tournament::default();
        t.apply(&Action::CreateTournament {
            name: "T".into(),
            date: None,
        })
        .unwrap();
        t.apply(&Action::AddDivision {
            division: "A".into(),
            preset: "naspa-2013".into(),
            schedule: "SW:3".into(),
            seed: 1,
        })
        .unwrap();
        let d = t.division("A").unwrap();
        for (k, v, says) in [
            ("bye-spread", "lots", "bye-spread needs a whole number"),
            ("gibson", "250", "gibson takes SPREAD:PLACES"),
            ("tie-breaks", "wins,luck", "unknown tie-break \"luck\""),
            ("colour", "red", "unknown setting \"colour\""),
        ] {
            let e = Setting::parse(d, k, v).unwrap_err();
            assert!(e.contains(says), "{k} {v}: {e}");
        }
    }
}
