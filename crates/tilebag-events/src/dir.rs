//! The server's folder of event files: `DIR/ID.tbev`, one per event. An id is what the director
//! pages put in the address (`/td/ID`), so it is short, lower-case and safe in a path.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tilebag_tournament::Action;

use crate::EventFile;

/// The extension of event files in an [`EventsDir`].
pub const EVENT_EXTENSION: &str = "tbev";

/// The longest event id.
const MAX_ID: usize = 40;

/// A folder of event files.
#[derive(Debug, Clone)]
pub struct EventsDir {
    root: PathBuf,
}

/// One event of the folder, for a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventEntry {
    pub id: String,
    pub name: String,
    pub date: Option<String>,
    pub divisions: usize,
}

impl EventsDir {
    pub fn new(root: impl Into<PathBuf>) -> EventsDir {
        EventsDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Checks an event id: 1 to 40 of `a-z`, `0-9` and `-`, not starting with `-`.
    pub fn check_id(id: &str) -> Result<()> {
        let ok = !id.is_empty()
            && id.len() <= MAX_ID
            && !id.starts_with('-')
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok {
            bail!(
                "an event id is 1 to {MAX_ID} lower-case letters, digits and hyphens \
                 (not starting with a hyphen), not {id:?}"
            );
        }
        Ok(())
    }

    /// The file of event `id` (which may not exist).
    pub fn path(&self, id: &str) -> Result<PathBuf> {
        Self::check_id(id)?;
        Ok(self.root.join(format!("{id}.{EVENT_EXTENSION}")))
    }

    /// Opens an existing event for changes.
    pub fn open(&self, id: &str) -> Result<EventFile> {
        let path = self.path(id)?;
        if !path.exists() {
            bail!("there is no event {id:?}");
        }
        EventFile::open(&path)
    }

    /// Opens an existing event for reading.
    pub fn open_read(&self, id: &str) -> Result<EventFile> {
        let path = self.path(id)?;
        if !path.exists() {
            bail!("there is no event {id:?}");
        }
        EventFile::open_read(&path)
    }

    /// Creates event `id` (refused if it exists) and logs its first action.
    pub fn create(&self, id: &str, name: &str, date: Option<String>) -> Result<EventFile> {
        let path = self.path(id)?;
        std::fs::create_dir_all(&self.root)
            .with_context(|| format!("cannot create {}", self.root.display()))?;
        if path.exists() {
            bail!("an event {id:?} exists already");
        }
        let mut file = EventFile::create(&path)?;
        let made = file.append(|_| {
            Ok(vec![Action::CreateTournament {
                name: name.to_string(),
                date: date.clone(),
            }])
        });
        if let Err(e) = made {
            drop(file);
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        Ok(file)
    }

    /// The events of the folder, by id. Files that do not read are listed with their error as
    /// the name, so a damaged file is seen rather than hidden.
    pub fn list(&self) -> Result<Vec<EventEntry>> {
        let mut out = Vec::new();
        let entries = match std::fs::read_dir(&self.root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read {}", self.root.display()))
            }
        };
        for entry in entries {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some(EVENT_EXTENSION) {
                continue;
            }
            let Some(id) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if Self::check_id(id).is_err() {
                continue;
            }
            let entry = match EventFile::open_read(&path).and_then(|f| f.load()) {
                Ok(t) => EventEntry {
                    id: id.to_string(),
                    name: t.name,
                    date: t.date,
                    divisions: t.divisions.len(),
                },
                Err(e) => EventEntry {
                    id: id.to_string(),
                    name: format!("{UNREADABLE}{e:#})"),
                    date: None,
                    divisions: 0,
                },
            };
            out.push(entry);
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    /// The event files of the folder that do not read, by id, with why (for the server's
    /// start-up log; [`EventsDir::list`] shows the same on the director's home page).
    pub fn unreadable(&self) -> Result<Vec<(String, String)>> {
        Ok(self
            .list()?
            .into_iter()
            .filter(|e| e.name.starts_with(UNREADABLE))
            .map(|e| {
                let why = e.name[UNREADABLE.len()..].trim_end_matches(')').to_string();
                (e.id, why)
            })
            .collect())
    }
}

/// How [`EventsDir::list`] names a file that does not read.
const UNREADABLE: &str = "(unreadable: ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_safe_path_segments() {
        for ok in ["spring-open", "a", "2026-nationals"] {
            assert!(EventsDir::check_id(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-x",
            "Spring",
            "a/b",
            "..",
            "a.b",
            "x y",
            &"a".repeat(41),
        ] {
            let e = EventsDir::check_id(bad).unwrap_err().to_string();
            assert!(e.contains("lower-case letters"), "{bad}: {e}");
        }
    }

    #[test]
    fn create_list_open_and_refuse_a_second_create() {
        let dir = std::env::temp_dir().join(format!("tilebag-events-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let events = EventsDir::new(&dir);
        assert!(
            events.list().unwrap().is_empty(),
            "a missing folder lists nothing"
        );
        events
            .create("club", "Club night", Some("2026-11-22".into()))
            .unwrap();
        let again = events
            .create("club", "Other", None)
            .err()
            .unwrap()
            .to_string();
        assert!(again.contains("exists already"), "{again}");
        std::fs::write(dir.join("junk.tbev"), b"not sqlite at all").unwrap();
        let list = events.list().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].id, "club");
        assert_eq!(list[0].name, "Club night");
        assert_eq!(list[0].date.as_deref(), Some("2026-11-22"));
        assert!(list[1].name.starts_with("(unreadable"), "{:?}", list[1]);
        let t = events.open_read("club").unwrap().load().unwrap();
        assert_eq!(t.name, "Club night");
        let missing = events.open("nope").err().unwrap().to_string();
        assert!(missing.contains("no event \"nope\""), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
