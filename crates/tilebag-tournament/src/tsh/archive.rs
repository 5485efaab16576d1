//! `.tsh` archives: `division NAME FILE` lines and each division's `.t` file between
//! `#begin_file name=FILE` and `#end_file name=FILE`. An imported archive's other lines
//! (`config …`, `classes …`, comments) and its file names are kept with the event
//! ([`Tournament::tsh_config`]) and written back.

use super::{write_t, TshError};
use crate::action::Action;
use crate::model::Tournament;

/// The file name a division gets in an archive tilebag writes (one it imported keeps its own).
pub fn file_name(division: &str) -> String {
    let safe: String = division
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.t")
}

/// A `division NAME FILE` line's division and file.
fn division_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("division ")?;
    let mut w = rest.split_whitespace();
    Some((w.next()?, w.next()?))
}

/// Writes a whole tournament as a `.tsh` archive. An event imported from an archive starts with
/// that archive's lines outside its files, as they came (a division added since gets a
/// `division` line after the kept ones); each division's file has the name its `division` line
/// gives.
pub fn write_tsh_archive(t: &Tournament) -> Result<String, TshError> {
    // Each division's file: as a kept `division` line names it, else tilebag's own name.
    let kept: Vec<(&str, &str)> = t
        .tsh_config
        .iter()
        .filter_map(|l| division_line(l))
        .collect();
    let file_of = |d: &str| {
        kept.iter()
            .find(|(name, _)| *name == d)
            .map_or_else(|| file_name(d), |(_, f)| f.to_string())
    };
    let new_lines: Vec<String> = t
        .divisions
        .iter()
        .filter(|d| !kept.iter().any(|(name, _)| *name == d.name))
        .map(|d| format!("division {} {}\n", d.name, file_of(&d.name)))
        .collect();
    let mut out = String::new();
    if t.tsh_config.is_empty() {
        out.push_str(&format!("# {}\n", t.name));
        out.extend(new_lines);
    } else {
        // New divisions' lines go after the last kept `division` line.
        let last = t
            .tsh_config
            .iter()
            .rposition(|l| division_line(l).is_some());
        let mut new_lines = Some(new_lines);
        for (i, l) in t.tsh_config.iter().enumerate() {
            out.push_str(l);
            out.push('\n');
            if Some(i) == last {
                out.extend(new_lines.take().into_iter().flatten());
            }
        }
        out.extend(new_lines.into_iter().flatten());
    }
    for d in &t.divisions {
        let f = file_of(&d.name);
        out.push_str(&format!("#begin_file name={f}\n"));
        out.push_str(&write_t(d)?);
        out.push_str(&format!("#end_file name={f}\n"));
    }
    Ok(out)
}

/// A `.tsh` archive as read: its divisions as (division name, `.t` text), in `division` line
/// order, and every line outside its files (`config …`, `division …`, comments), verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TshArchive {
    pub divisions: Vec<(String, String)>,
    pub config: Vec<String>,
}

impl TshArchive {
    /// The action that keeps the archive's lines outside its files with the event, so that the
    /// archive tilebag writes gives them back (after the divisions are imported).
    pub fn keep_action(&self) -> Action {
        Action::KeepTshConfig {
            lines: self.config.clone(),
        }
    }
}

/// Reads a `.tsh` archive into (division name, `.t` text) pairs, in `division` line order.
pub fn read_tsh_archive(text: &str) -> Result<Vec<(String, String)>, TshError> {
    Ok(read_tsh_archive_with_config(text)?.divisions)
}

/// Reads a `.tsh` archive: its divisions and its lines outside the files.
pub fn read_tsh_archive_with_config(text: &str) -> Result<TshArchive, TshError> {
    let mut divisions = Vec::new();
    let mut config = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("#begin_file name=") {
            current = Some((name.trim().to_string(), String::new(), i + 1));
        } else if let Some(name) = t.strip_prefix("#end_file name=") {
            match current.take() {
                Some((n, body, _)) if n == name.trim() => files.push((n, body)),
                _ => {
                    return Err(TshError::Line {
                        line: i + 1,
                        reason: format!("#end_file for {:?} without its #begin_file", name.trim()),
                    })
                }
            }
        } else if let Some((_, body, _)) = &mut current {
            body.push_str(line);
            body.push('\n');
        } else {
            if let Some((d, f)) = division_line(t) {
                divisions.push((d.to_string(), f.to_string()));
            }
            config.push(line.to_string());
        }
    }
    if let Some((n, _, line)) = current {
        return Err(TshError::Line {
            line,
            reason: format!("#begin_file for {n:?} is never closed"),
        });
    }
    if divisions.is_empty() {
        return Err(TshError::Archive {
            what: "the archive".into(),
            reason: match files.first() {
                Some((f, _)) => format!(
                    "names no division (no `division NAME FILE` line), so file {f} belongs to none"
                ),
                None => "names no division (no `division NAME FILE` line)".into(),
            },
        });
    }
    if let Some((f, _)) = files
        .iter()
        .find(|(f, _)| !divisions.iter().any(|(_, df)| df == f))
    {
        return Err(TshError::Archive {
            what: format!("file {f}"),
            reason: "no `division NAME FILE` line names it".into(),
        });
    }
    let divisions = divisions
        .into_iter()
        .map(|(d, f)| {
            files
                .iter()
                .find(|(n, _)| *n == f)
                .map(|(_, body)| (d.clone(), body.clone()))
                .ok_or(TshError::Archive {
                    what: format!("division {d}"),
                    reason: format!("file {f} is not in the archive"),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TshArchive { divisions, config })
}

impl Tournament {
    /// `KeepTshConfig`: an imported archive's lines outside its files, kept for export (added
    /// after any kept before).
    pub(crate) fn keep_tsh_config(&mut self, lines: &[String]) {
        self.tsh_config.extend(lines.iter().cloned());
    }
}
