//! Starting the log, adding divisions and changing a division's settings.

use tilebag_core::ruleset::Ruleset;

use super::Setting;
use crate::error::{Result, TournamentError};
use crate::model::{Division, DivisionConfig, Tournament};
use crate::schedule::Schedule;

impl Tournament {
    /// `CreateTournament`: names the event; only the first action of a log may do it.
    pub(super) fn create_tournament(&mut self, name: &str, date: &Option<String>) -> Result<()> {
        if !self.name.is_empty() || !self.divisions.is_empty() {
            return Err(TournamentError::AlreadyCreated {
                name: self.name.clone(),
            });
        }
        self.name = name.to_string();
        self.date = date.clone();
        Ok(())
    }

    /// `EditEvent`: a new name, a new first day, or both (a `.TOU` header needs the day). The
    /// name must not be blank and the day must be on the calendar, `YYYY-MM-DD`.
    pub(super) fn edit_event(&mut self, name: Option<&str>, date: Option<&str>) -> Result<()> {
        let refuse = |reason: String| TournamentError::BadEvent {
            name: self.name.clone(),
            reason,
        };
        let name = name.map(str::trim);
        if name.is_some_and(str::is_empty) {
            return Err(refuse("the event needs a name".into()));
        }
        if let Some(d) = date {
            if !is_calendar_date(d) {
                return Err(refuse(format!(
                    "the date must be a day of the calendar as YYYY-MM-DD, not {d:?}"
                )));
            }
        }
        if let Some(n) = name {
            self.name = n.to_string();
        }
        if let Some(d) = date {
            self.date = Some(d.to_string());
        }
        Ok(())
    }

    /// `AddDivision`: a new division, its settings taken from the ruleset preset.
    pub(super) fn add_division(
        &mut self,
        division: &str,
        preset: &str,
        schedule: &str,
        seed: u64,
    ) -> Result<()> {
        if self.divisions.iter().any(|d| d.name == division) {
            return Err(TournamentError::DuplicateDivision {
                division: division.to_string(),
            });
        }
        let rules = Ruleset::preset(preset).map_err(|source| TournamentError::Preset {
            division: division.to_string(),
            source,
        })?;
        let schedule = Schedule::parse(schedule).map_err(|source| TournamentError::Schedule {
            division: division.to_string(),
            source,
        })?;
        self.divisions.push(Division {
            name: division.to_string(),
            preset: preset.to_string(),
            config: DivisionConfig::from_ruleset(&rules),
            schedule,
            seed,
            players: Vec::new(),
            rounds: Vec::new(),
            adjustments: Vec::new(),
            online: Vec::new(),
            entries: None,
        });
        Ok(())
    }
}

/// `YYYY-MM-DD` naming a day of the (proleptic Gregorian) calendar.
fn is_calendar_date(d: &str) -> bool {
    let b = d.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| d[r].parse::<u32>().ok())
            .flatten()
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

impl Setting {
    /// The spreads a setting gives, which must be in range.
    fn spreads(&self) -> Vec<i32> {
        match self {
            Setting::ByeSpread(x) | Setting::ForfeitSpread(x) | Setting::ResignationMargin(x) => {
                vec![*x]
            }
            Setting::SpreadCap(x) => x.iter().copied().collect(),
            Setting::Gibson(Some(g)) => vec![g.spread_per_round],
            _ => Vec::new(),
        }
    }
}

impl Division {
    /// `Configure`: changes one setting, after checking its value.
    pub(super) fn configure(&mut self, setting: &Setting) -> Result<()> {
        self.check_spreads(&setting.spreads())?;
        let c = &mut self.config;
        match setting {
            Setting::Schedule(s) => {
                self.schedule = Schedule::parse(s).map_err(|source| TournamentError::Schedule {
                    division: self.name.clone(),
                    source,
                })?;
            }
            Setting::ByeSpread(x) => c.bye_spread = *x,
            Setting::ForfeitSpread(x) => c.forfeit_spread = *x,
            Setting::ResignationMargin(x) => c.resignation_margin = *x,
            Setting::SpreadCap(x) => {
                if x.is_some_and(|x| x <= 0) {
                    return Err(TournamentError::BadSetting {
                        division: self.name.clone(),
                        reason: "a spread cap must be positive".into(),
                    });
                }
                c.spread_cap = *x
            }
            Setting::TieBreaks(x) => c.tie_breaks = x.clone(),
            Setting::Gibson(x) => c.gibson = *x,
            Setting::Firsts(x) => c.firsts = *x,
            Setting::WithdrawnResult(x) => c.withdrawn_result = *x,
            Setting::Fontes(x) => c.fontes = *x,
            Setting::Ratings(x) => c.ratings = *x,
            Setting::Format(x) => c.format = *x,
            Setting::Rules(rules) => {
                // Each choice must be one the division's rulebook leaves to the organiser.
                Ruleset::preset(&self.preset)
                    .map_err(|source| TournamentError::Preset {
                        division: self.name.clone(),
                        source,
                    })?
                    .with_overrides(rules)
                    .map_err(|e| TournamentError::Rules {
                        division: self.name.clone(),
                        message: e.to_string(),
                    })?;
                c.rules = rules.clone();
            }
            Setting::WinnerSubmits(x) => c.winner_submits = *x,
            Setting::MaxRepeats(x) => c.max_repeats = *x,
            Setting::PrizeBands(x) => c.prize_bands = *x,
            Setting::FlightCap(x) => c.flight_cap = *x,
            Setting::ClassPrizes(x) => c.class_prizes = x.clone(),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_calendar_date;

    #[test]
    fn calendar_dates() {
        for ok in ["2024-02-29", "2000-02-29", "2023-12-31", "1999-01-01"] {
            assert!(is_calendar_date(ok), "{ok}");
        }
        for bad in [
            "2023-02-29",
            "1900-02-29",
            "2024-04-31",
            "2024-13-01",
            "2024-00-10",
            "2024-01-00",
            "2024-1-01",
            "04.05.2024",
            "2024-01-0a",
            "+024-01-01",
            "",
        ] {
            assert!(!is_calendar_date(bad), "{bad}");
        }
    }
}
