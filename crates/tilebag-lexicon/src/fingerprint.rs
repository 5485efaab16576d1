//! Recognising well-known word lists by a few cheap statistics, so `tilebag lexicon info` can say
//! what a user's file appears to be without shipping (or even knowing) the proprietary lists.

use serde::{Deserialize, Serialize};

/// The statistics that tell the well-known lists apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Distinct words.
    pub word_count: u32,
    /// Distinct two-letter words.
    pub two_letter_count: u32,
    /// Holds QI (TWL06 and later, Collins lists).
    pub has_qi: bool,
    /// Holds EUOI (Collins lists).
    pub has_euoi: bool,
    /// Holds OK (CSW19 and later; NWL2018 too).
    pub has_ok: bool,
}

/// A well-known list and its fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownList {
    /// Short name, e.g. `"ENABLE1"`.
    pub name: &'static str,
    /// The name to give a copy with its words over 15 letters removed (the fingerprint then has
    /// `word_count - words_over_15`), if the list has any.
    pub name_without_long: &'static str,
    /// The fingerprint of the list as published.
    pub fingerprint: Fingerprint,
    /// How many of its words are longer than 15 letters.
    pub words_over_15: u32,
}

/// The fingerprints of `shared/lexicons/README.md`. Only ENABLE1 holds words over 15 letters
/// (4,272 of them); the tournament lists stop at 15.
pub const KNOWN_LISTS: &[KnownList] = &[
    known(
        "ENABLE1",
        "ENABLE1 (words over 15 letters dropped)",
        172_820,
        96,
        false,
        false,
        false,
        4_272,
    ),
    known("TWL06", "TWL06", 178_691, 101, true, false, false, 0),
    known("SOWPODS", "SOWPODS", 267_751, 124, true, true, false, 0),
    known("CSW19", "CSW19", 279_496, 127, true, true, true, 0),
];

#[allow(clippy::too_many_arguments)]
const fn known(
    name: &'static str,
    name_without_long: &'static str,
    word_count: u32,
    two_letter_count: u32,
    has_qi: bool,
    has_euoi: bool,
    has_ok: bool,
    words_over_15: u32,
) -> KnownList {
    KnownList {
        name,
        name_without_long,
        fingerprint: Fingerprint {
            word_count,
            two_letter_count,
            has_qi,
            has_euoi,
            has_ok,
        },
        words_over_15,
    }
}

impl Fingerprint {
    /// The fingerprint of a sorted, duplicate-free list of uppercase words.
    pub fn of_sorted<S: AsRef<str>>(words: &[S]) -> Fingerprint {
        Fingerprint::of_sorted_by(words, |w| w.as_ref().as_bytes())
    }

    /// [`Fingerprint::of_sorted`] for words of any type, seen as bytes through `bytes`.
    pub(crate) fn of_sorted_by<T>(words: &[T], bytes: impl Fn(&T) -> &[u8]) -> Fingerprint {
        let has = |w: &[u8]| words.binary_search_by(|x| bytes(x).cmp(w)).is_ok();
        Fingerprint {
            word_count: u32::try_from(words.len()).unwrap_or(u32::MAX),
            two_letter_count: words.iter().filter(|w| bytes(w).len() == 2).count() as u32,
            has_qi: has(b"QI"),
            has_euoi: has(b"EUOI"),
            has_ok: has(b"OK"),
        }
    }

    /// Names the well-known list this fingerprint matches: exactly (`"ENABLE1"`), or as that list
    /// less its words over 15 letters (`"ENABLE1 (words over 15 letters dropped)"`).
    pub fn identify(&self) -> Option<&'static str> {
        self.identify_with_dropped(0)
    }

    /// Like [`Fingerprint::identify`] for the words that remain after `dropped` words over 15
    /// letters were removed: the list is recognised if adding them back gives a known count.
    pub fn identify_with_dropped(&self, dropped: u32) -> Option<&'static str> {
        let same_rest = |k: &KnownList| {
            let f = &k.fingerprint;
            f.two_letter_count == self.two_letter_count
                && f.has_qi == self.has_qi
                && f.has_euoi == self.has_euoi
                && f.has_ok == self.has_ok
        };
        let total = self.word_count.saturating_add(dropped);
        KNOWN_LISTS.iter().filter(|k| same_rest(k)).find_map(|k| {
            if k.fingerprint.word_count == total {
                Some(if dropped > 0 && k.words_over_15 == dropped {
                    k.name_without_long
                } else {
                    k.name
                })
            } else if k.words_over_15 > 0 && k.fingerprint.word_count - k.words_over_15 == total {
                Some(k.name_without_long)
            } else {
                None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(word_count: u32, two: u32, qi: bool, euoi: bool, ok: bool) -> Fingerprint {
        Fingerprint {
            word_count,
            two_letter_count: two,
            has_qi: qi,
            has_euoi: euoi,
            has_ok: ok,
        }
    }

    #[test]
    fn the_table() {
        assert_eq!(
            fp(172_820, 96, false, false, false).identify(),
            Some("ENABLE1")
        );
        assert_eq!(
            fp(178_691, 101, true, false, false).identify(),
            Some("TWL06")
        );
        assert_eq!(
            fp(267_751, 124, true, true, false).identify(),
            Some("SOWPODS")
        );
        assert_eq!(fp(279_496, 127, true, true, true).identify(), Some("CSW19"));
        assert_eq!(fp(279_496, 127, true, true, false).identify(), None);
        assert_eq!(fp(1000, 96, false, false, false).identify(), None);
    }

    #[test]
    fn enable_without_its_long_words() {
        let built = fp(172_820 - 4_272, 96, false, false, false);
        assert_eq!(
            built.identify(),
            Some("ENABLE1 (words over 15 letters dropped)")
        );
        assert_eq!(
            built.identify_with_dropped(4_272),
            Some("ENABLE1 (words over 15 letters dropped)")
        );
        // Off by some other number: not recognised.
        assert_eq!(
            fp(172_820 - 4_000, 96, false, false, false).identify_with_dropped(0),
            None
        );
    }

    #[test]
    fn of_sorted() {
        let words = ["AA", "EUOI", "OK", "QI", "ZA"];
        let f = Fingerprint::of_sorted(&words);
        assert_eq!(f, fp(5, 4, true, true, true));
    }
}
