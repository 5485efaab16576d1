//! A filter that says at once whether some long word is an anagram of a set of tiles: the move
//! generator's bingo test (are the rack's seven tiles and a window's board letters the letters
//! of a word?), which a walk of the GADDAG answers only after trying every order of the letters.
//!
//! # How it works
//!
//! A multiset of letters is hashed by adding one 64-bit random constant per letter, so taking a
//! letter out is one subtraction. The set holds, for every word of at least `min_len` letters,
//! the hash of its letters (4 bytes a slot), and in a second table, for each distinct letter of
//! it, the hash of its letters less that letter with the set of letters that complete it there
//! (8 bytes a slot: the letters a blank may be). Asking about a multiset with one blank is one
//! lookup, which also says which letters the blank may stand for; with two, one lookup per
//! letter the second blank might be. The tables are open addressing, at most 70% full: a
//! hash's low bits choose the slot and its high 32 bits are the mark the slot holds (0 marks
//! an empty slot).
//!
//! Hashes can collide, so the answer "yes" may be wrong (about one chance in 2^31 for each slot
//! a lookup compares); "no" is always right. A caller uses it only to skip work that cannot find anything, and must still
//! find the word itself.
//!
//! # The words themselves
//!
//! Beside the filter, the set keeps every word of 2 to 15 letters (longer ones fit on no
//! board) grouped by its letters: [`AnagramSet::words_of`] lists the words that are exactly
//! the letters of a multiset, so the generator can try each against a window's squares instead
//! of walking the automaton through every order of the tiles. The groups are found through a
//! second open-addressing table (8 bytes a slot: a 32-bit mark and the group's number), and
//! each word is 16 bytes (its letter codes). A group is checked against the multiset asked
//! for, so a hash collision never lists a wrong word.

/// See the module documentation.
#[derive(Clone)]
pub struct AnagramSet {
    /// The marks of the words' multisets.
    table: Vec<u32>,
    /// Per multiset a word less one letter: a mark (high 32 bits, 0 for an empty slot) and the
    /// letters that complete it (bits 1..=26).
    blank_slots: Vec<u64>,
    min_len: usize,
    entries: usize,
    /// Slots of the word groups: a mark (high 32 bits, 0 for an empty slot) and a group number.
    group_slots: Vec<u64>,
    /// Group `g`'s words are `words[group_start[g]..group_start[g + 1]]`.
    group_start: Vec<u32>,
    /// Each word's letter codes (1..=26), 0 after its last letter.
    words: Vec<[u8; 16]>,
}

impl std::fmt::Debug for AnagramSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnagramSet")
            .field("min_len", &self.min_len)
            .field("entries", &self.entries)
            .finish()
    }
}

/// One constant per letter code (1..=26; index 0 is not used): fixed (SplitMix64 from a fixed
/// seed), so the set is the same on every run.
const KEYS: [u64; 27] = {
    let mut k = [0u64; 27];
    let mut state = 0x7469_6c65_6261_6721u64;
    let mut i = 0;
    while i < 27 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        k[i] = (z ^ (z >> 31)) | 1;
        i += 1;
    }
    k
};

/// A hash's slot in a table of `len` slots (a power of two: its low bits) and the mark stored
/// there (its high 32 bits, never 0, since 0 marks an empty slot). Two multisets are told apart
/// unless both agree: about one chance in 2^31 for each slot a lookup compares.
#[inline]
fn slot_and_mark(h: u64, len: usize) -> (usize, u32) {
    ((h as usize) & (len - 1), ((h >> 32) as u32) | 1)
}

/// The longest word a board holds: longer words are not listed.
const MAX_WORD: usize = 15;

/// The hash of a multiset given as counts per letter code (index 0, the blank, is ignored).
#[inline]
fn hash_counts(counts: &[u8; 27]) -> u64 {
    counts.iter().zip(&KEYS).skip(1).fold(0u64, |h, (&n, &k)| {
        h.wrapping_add(k.wrapping_mul(u64::from(n)))
    })
}

impl AnagramSet {
    /// The filter for the words of `words` (uppercase A–Z) of at least `min_len` letters, and
    /// the lists of all its words of 2 to 15 letters.
    pub fn build<I, S>(words: I, min_len: usize) -> AnagramSet
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        // Each long word's hash and the set of its letters (12 bytes a word), then the table
        // sized for them all: the build needs little more memory than the table.
        let mut found: Vec<(u64, u32)> = Vec::new();
        // The words that fit on a board, with their hash, to be grouped by it.
        let mut listed: Vec<(u64, [u8; 16])> = Vec::new();
        for w in words {
            let w = w.as_ref().as_bytes();
            if w.len() < 2 || !w.iter().all(u8::is_ascii_uppercase) {
                continue;
            }
            let mut counts = [0u8; 27];
            let mut letters = 0u32;
            let mut codes = [0u8; 16];
            for (i, &b) in w.iter().enumerate() {
                let l = usize::from(b - b'A' + 1);
                counts[l] = counts[l].saturating_add(1);
                letters |= 1 << l;
                if let Some(c) = codes.get_mut(i) {
                    *c = l as u8;
                }
            }
            let h = hash_counts(&counts);
            if w.len() >= min_len {
                found.push((h, letters));
            }
            if w.len() <= MAX_WORD {
                listed.push((h, codes));
            }
        }
        let less_one: usize = found
            .iter()
            .map(|&(_, letters)| letters.count_ones() as usize)
            .sum();
        // At most 70% full, so probing stays short.
        let slots = |n: usize| (n * 10 / 7 + 1).next_power_of_two().max(16);
        let mut set = AnagramSet {
            table: vec![0u32; slots(found.len())],
            blank_slots: vec![0u64; slots(less_one)],
            min_len,
            entries: 0,
            group_slots: Vec::new(),
            group_start: Vec::new(),
            words: Vec::with_capacity(listed.len()),
        };
        set.group_words(listed);
        for &(h, letters) in &found {
            set.insert(h);
            let mut bits = letters;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                set.insert_less_one(h.wrapping_sub(KEYS[l]), l);
            }
        }
        set
    }

    /// Records that letter `l` completes the multiset whose hash is `h` into a word.
    fn insert_less_one(&mut self, h: u64, l: usize) {
        let (mut i, mark) = slot_and_mark(h, self.blank_slots.len());
        let mask = self.blank_slots.len() - 1;
        loop {
            let v = self.blank_slots[i];
            if v == 0 {
                self.blank_slots[i] = u64::from(mark) << 32 | 1 << l;
                return;
            }
            if (v >> 32) as u32 == mark {
                self.blank_slots[i] = v | 1 << l;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// The letters (bits 1..=26) that, added to the multiset whose hash is `h`, make the
    /// letters of a word of at least `min_len` letters: what one blank may stand for. Never
    /// misses a letter; a hash collision may add some (callers find the words themselves).
    #[inline]
    pub fn blank_letters(&self, h: u64) -> u32 {
        let (mut i, mark) = slot_and_mark(h, self.blank_slots.len());
        let mask = self.blank_slots.len() - 1;
        loop {
            let v = self.blank_slots[i];
            if v == 0 {
                return 0;
            }
            if (v >> 32) as u32 == mark {
                return v as u32;
            }
            i = (i + 1) & mask;
        }
    }

    /// Sorts the listed words by their letters' hash and indexes each run of one multiset.
    fn group_words(&mut self, mut listed: Vec<(u64, [u8; 16])>) {
        listed.sort_unstable();
        let groups = listed
            .iter()
            .enumerate()
            .filter(|&(i, w)| i == 0 || listed[i - 1].0 != w.0)
            .count();
        let slots = (groups * 10 / 7 + 1).next_power_of_two().max(16);
        self.group_slots = vec![0u64; slots];
        let mask = slots - 1;
        for (i, &(h, codes)) in listed.iter().enumerate() {
            if i == 0 || listed[i - 1].0 != h {
                let g = self.group_start.len() as u64;
                self.group_start.push(self.words.len() as u32);
                let (mut at, mark) = slot_and_mark(h, slots);
                while self.group_slots[at] != 0 {
                    at = (at + 1) & mask;
                }
                self.group_slots[at] = u64::from(mark) << 32 | g;
            }
            self.words.push(codes);
        }
        self.group_start.push(self.words.len() as u32);
    }

    /// The words (letter codes 1..=26, then 0s) made of exactly the letters `counts` (per
    /// letter code 1..=26; index 0 is ignored), of 2 to 15 letters; empty for any other
    /// length.
    pub fn words_of(&self, counts: &[u8; 27]) -> &[[u8; 16]] {
        let len: usize = counts[1..].iter().map(|&n| usize::from(n)).sum();
        if !(2..=MAX_WORD).contains(&len) {
            return &[];
        }
        self.words_hashed(hash_counts(counts), counts)
    }

    /// [`AnagramSet::words_of`] for a multiset of 2 to 15 letters whose hash the caller has
    /// ([`AnagramSet::hash`], [`AnagramSet::plus`]): one probe when no word has those letters.
    pub fn words_hashed(&self, h: u64, counts: &[u8; 27]) -> &[[u8; 16]] {
        if self.group_slots.is_empty() {
            return &[];
        }
        let (mut at, mark) = slot_and_mark(h, self.group_slots.len());
        let mask = self.group_slots.len() - 1;
        loop {
            let v = self.group_slots[at];
            if v == 0 {
                return &[];
            }
            if (v >> 32) as u32 == mark {
                let g = (v & 0xffff_ffff) as usize;
                let words =
                    &self.words[self.group_start[g] as usize..self.group_start[g + 1] as usize];
                // The same hash, but the same letters? (A collision would list wrong words.)
                let mut c = [0u8; 27];
                for &l in words[0].iter().take_while(|&&l| l != 0) {
                    c[usize::from(l)] += 1;
                }
                if c[1..] == counts[1..] {
                    return words;
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Records a word's multiset (hash `h`).
    fn insert(&mut self, h: u64) {
        let (mut i, mark) = slot_and_mark(h, self.table.len());
        let mask = self.table.len() - 1;
        while self.table[i] != 0 {
            if self.table[i] == mark {
                // The same multiset (or one it cannot be told from): nothing to add.
                return;
            }
            i = (i + 1) & mask;
        }
        self.table[i] = mark;
        self.entries += 1;
    }

    /// Bytes the table takes in memory.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 4
            + self.blank_slots.len() * 8
            + self.group_slots.len() * 8
            + self.group_start.len() * 4
            + self.words.len() * 16
    }

    #[inline]
    fn holds(&self, h: u64) -> bool {
        let (mut i, mark) = slot_and_mark(h, self.table.len());
        let mask = self.table.len() - 1;
        loop {
            let v = self.table[i];
            if v == mark {
                return true;
            }
            if v == 0 {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// The hash of the multiset `counts` (per letter code 1..=26; index 0 is ignored).
    #[inline]
    pub fn hash(counts: &[u8; 27]) -> u64 {
        hash_counts(counts)
    }

    /// The hash of a multiset with one more letter `l` (a code 1..=26), from its hash `h`.
    #[inline]
    pub fn plus(h: u64, l: u8) -> u64 {
        h.wrapping_add(KEYS[usize::from(l & 31).min(26)])
    }

    /// Whether some word of at least `min_len` letters may be made of exactly the letters
    /// `counts` (per letter code 1..=26; index 0 is ignored) and `blanks` letters of any kind.
    /// "No" is certain; "yes" is wrong only on a hash collision. With more than two blanks, or a
    /// word shorter than `min_len`, the answer is "yes" (the set cannot tell).
    pub fn may_hold(&self, counts: &[u8; 27], blanks: u8) -> bool {
        let len: usize =
            counts[1..].iter().map(|&n| usize::from(n)).sum::<usize>() + usize::from(blanks);
        if len < self.min_len {
            return true;
        }
        let h = hash_counts(counts);
        match blanks {
            0 => self.holds(h),
            1 => self.blank_letters(h) != 0,
            2 => (1..27).any(|l| self.blank_letters(h.wrapping_add(KEYS[l])) != 0),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> [u8; 27] {
        let mut c = [0u8; 27];
        for b in s.bytes() {
            c[usize::from(b - b'A' + 1)] += 1;
        }
        c
    }

    #[test]
    fn answers_as_the_word_list_does() {
        let words = ["RETAINS", "STAINER", "QUIXOTIC", "CAT", "ZYZZYVAS"];
        let set = AnagramSet::build(words, 7);
        // No blank: an anagram of a long word, or not.
        assert!(set.may_hold(&counts("NASTIER"), 0));
        assert!(set.may_hold(&counts("CQUIXOIT"), 0));
        assert!(!set.may_hold(&counts("NASTIEX"), 0));
        assert!(
            !set.may_hold(&counts("RETAINSS"), 0),
            "eight letters, one S too many"
        );
        // One blank stands for the missing letter.
        assert!(set.may_hold(&counts("RETAIN"), 1));
        assert!(set.may_hold(&counts("ZYZZVAS"), 1));
        assert!(!set.may_hold(&counts("RETAIX"), 1));
        // What one blank may stand for: every letter that completes a word, and only those.
        let bit = |c: char| 1u32 << (c as u8 - b'A' + 1);
        let h = AnagramSet::hash(&counts("RETAIN"));
        assert_eq!(set.blank_letters(h), bit('S'));
        let h = AnagramSet::hash(&counts("ZYZZVAS"));
        assert_eq!(set.blank_letters(h), bit('Y'), "ZYZZYVAS less a Y");
        let h = AnagramSet::hash(&counts("ZYZYVAS"));
        assert_eq!(set.blank_letters(h), bit('Z'), "ZYZZYVAS less a Z");
        let h = AnagramSet::hash(&counts("AEINST"));
        assert_eq!(set.blank_letters(h), bit('R'), "three words, one letter");
        assert_eq!(set.blank_letters(AnagramSet::hash(&counts("RETAIX"))), 0);
        // Two blanks.
        assert!(set.may_hold(&counts("ETAIN"), 2));
        assert!(set.may_hold(&counts("QUXOTC"), 2));
        assert!(!set.may_hold(&counts("QQXOTC"), 2));
        // Words under the minimum length are not known: the answer is "maybe".
        assert!(set.may_hold(&counts("CAT"), 0));
        assert!(set.may_hold(&counts("XQ"), 0));
    }

    fn spell(w: &[u8; 16]) -> String {
        w.iter()
            .take_while(|&&l| l != 0)
            .map(|&l| char::from(b'A' + l - 1))
            .collect()
    }

    #[test]
    fn words_are_listed_by_their_letters() {
        let words = [
            "RETAINS",
            "STAINER",
            "NASTIER",
            "CAT",
            "QUIXOTIC",
            "RETINAS",
            "ANTISERA",
            "SUPERCALIFRAGILISTIC",
        ];
        let set = AnagramSet::build(words, 7);
        let mut found: Vec<String> = set.words_of(&counts("AEINRST")).iter().map(spell).collect();
        found.sort();
        assert_eq!(found, ["NASTIER", "RETAINS", "RETINAS", "STAINER"]);
        let found: Vec<String> = set
            .words_of(&counts("AAEINRST"))
            .iter()
            .map(spell)
            .collect();
        assert_eq!(found, ["ANTISERA"]);
        assert!(set.words_of(&counts("AEINRSX")).is_empty());
        let found: Vec<String> = set.words_of(&counts("ACT")).iter().map(spell).collect();
        assert_eq!(
            found,
            ["CAT"],
            "short words are listed (the filter is for 7 or more)"
        );
        assert!(
            set.may_hold(&counts("ACT"), 0),
            "the filter cannot tell under 7"
        );
        assert!(
            set.words_of(&counts("SUPERCALIFRAGILISTIC")).is_empty(),
            "longer than a board: not listed"
        );
        // Every ENABLE word of 2 to 15 letters is listed under its own letters, and only
        // words of those letters are.
        let all: Vec<String> = crate::Lexicon::builtin_enable()
            .words()
            .filter(|w| w.len() <= 15)
            .collect();
        let set = AnagramSet::build(&all, 7);
        for w in all.iter().step_by(7) {
            let c = counts(w);
            let listed = set.words_of(&c);
            assert!(listed.iter().any(|x| spell(x) == *w), "{w}");
            assert!(listed.iter().all(|x| counts(&spell(x)) == c), "{w}");
        }
    }

    #[test]
    fn every_word_of_a_list_is_found_and_no_false_no() {
        // Every long word, and every long word less one or two letters with blanks for them.
        let words: Vec<String> = crate::Lexicon::builtin_enable()
            .words()
            .filter(|w| w.len() >= 7)
            .take(5000)
            .collect();
        let set = AnagramSet::build(&words, 7);
        for w in &words {
            let c = counts(w);
            assert!(set.may_hold(&c, 0), "{w}");
            for (i, b) in w.bytes().enumerate() {
                let mut one = c;
                one[usize::from(b - b'A' + 1)] -= 1;
                assert!(set.may_hold(&one, 1), "{w} with a blank for letter {i}");
                if let Some(&b2) = w.as_bytes().get(i + 1) {
                    let mut two = one;
                    two[usize::from(b2 - b'A' + 1)] -= 1;
                    assert!(set.may_hold(&two, 2), "{w} with two blanks");
                }
            }
        }
    }
}
