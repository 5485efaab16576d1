//! `.tsh` archives: `division NAME FILE` lines and each division's `.t` file between
//! `#begin_file name=FILE` and `#end_file name=FILE`.

use super::{write_t, TshError};
use crate::model::Tournament;

/// The file name a division gets in an archive.
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

/// Writes a whole tournament as a `.tsh` archive.
pub fn write_tsh_archive(t: &Tournament) -> Result<String, TshError> {
    let mut out = String::new();
    out.push_str(&format!("# {}\n", t.name));
    for d in &t.divisions {
        out.push_str(&format!("division {} {}\n", d.name, file_name(&d.name)));
    }
    for d in &t.divisions {
        let f = file_name(&d.name);
        out.push_str(&format!("#begin_file name={f}\n"));
        out.push_str(&write_t(d)?);
        out.push_str(&format!("#end_file name={f}\n"));
    }
    Ok(out)
}

/// Reads a `.tsh` archive into (division name, `.t` text) pairs, in `division` line order.
pub fn read_tsh_archive(text: &str) -> Result<Vec<(String, String)>, TshError> {
    let mut divisions = Vec::new();
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
        } else if let Some(rest) = t.strip_prefix("division ") {
            let mut w = rest.split_whitespace();
            if let (Some(d), Some(f)) = (w.next(), w.next()) {
                divisions.push((d.to_string(), f.to_string()));
            }
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
    divisions
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
        .collect()
}
