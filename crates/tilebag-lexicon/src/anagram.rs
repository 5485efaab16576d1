//! A filter that says at once whether some long word is an anagram of a set of tiles: the move
//! generator's bingo test (are the rack's seven tiles and a window's board letters the letters
//! of a word?), which a walk of the GADDAG answers only after trying every order of the letters.
//!
//! # How it works
//!
//! A multiset of letters is hashed by adding one 64-bit random constant per letter, so taking a
//! letter out is one subtraction. The set holds, for every word of at least `min_len` letters,
//! the hash of its letters, and for each distinct letter of it the hash of its letters less that
//! letter, marked as "one blank". Asking about a multiset with one blank is one lookup; with two,
//! one lookup per letter the second blank might be. The table is open addressing over `u64`
//! (0 marks an empty slot), at most half full.
//!
//! Hashes can collide, so the answer "yes" may be wrong (about once in 2^60 lookups); "no" is
//! always right. A caller uses it only to skip work that cannot find anything, and must still
//! find the word itself.

/// See the module documentation.
#[derive(Clone)]
pub struct AnagramSet {
    table: Vec<u64>,
    min_len: usize,
    entries: usize,
}

impl std::fmt::Debug for AnagramSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnagramSet")
            .field("min_len", &self.min_len)
            .field("entries", &self.entries)
            .finish()
    }
}

/// One constant per letter code (1..=26) and, at index 0, the mark of one blank: fixed
/// (SplitMix64 from a fixed seed), so the set is the same on every run.
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

/// The hash of a multiset given as counts per letter code (index 0, the blank, is ignored).
fn hash_counts(counts: &[u8; 27]) -> u64 {
    counts.iter().zip(&KEYS).skip(1).fold(0u64, |h, (&n, &k)| {
        h.wrapping_add(k.wrapping_mul(u64::from(n)))
    })
}

impl AnagramSet {
    /// The set for the words of `words` (uppercase A–Z) of at least `min_len` letters.
    pub fn build<I, S>(words: I, min_len: usize) -> AnagramSet
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut hashes: Vec<u64> = Vec::new();
        for w in words {
            let w = w.as_ref().as_bytes();
            if w.len() < min_len || !w.iter().all(u8::is_ascii_uppercase) {
                continue;
            }
            let mut counts = [0u8; 27];
            for &b in w {
                let c = &mut counts[usize::from(b - b'A' + 1)];
                *c = c.saturating_add(1);
            }
            let h = hash_counts(&counts);
            hashes.push(h);
            for (l, &n) in counts.iter().enumerate().skip(1) {
                if n > 0 {
                    hashes.push(h.wrapping_sub(KEYS[l]).wrapping_add(KEYS[0]));
                }
            }
        }
        hashes.sort_unstable();
        hashes.dedup();
        let slots = (hashes.len() * 2).next_power_of_two().max(16);
        let mut table = vec![0u64; slots];
        for &h in &hashes {
            // 0 marks an empty slot; a hash of 0 is stored as 1 (a false "yes" at worst).
            let h = h.max(1);
            let mut i = (h as usize) & (slots - 1);
            while table[i] != 0 {
                i = (i + 1) & (slots - 1);
            }
            table[i] = h;
        }
        AnagramSet {
            table,
            min_len,
            entries: hashes.len(),
        }
    }

    /// The shortest words the set knows.
    pub fn min_len(&self) -> usize {
        self.min_len
    }

    /// Bytes the table takes in memory.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 8
    }

    fn holds(&self, h: u64) -> bool {
        let h = h.max(1);
        let mask = self.table.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            let v = self.table[i];
            if v == h {
                return true;
            }
            if v == 0 {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Whether some word of at least `min_len` letters may be made of exactly the letters
    /// `counts` (per letter code 1..=26; index 0 is ignored) and `blanks` letters of any kind.
    /// "No" is certain; "yes" is wrong only on a hash collision. With more than two blanks, or a
    /// word shorter than `min_len`, the answer is "yes" (the set cannot tell).
    pub fn may_hold(&self, counts: &[u8; 27], blanks: u8) -> bool {
        let len: usize =
            counts[1..].iter().map(|&n| usize::from(n)).sum::<usize>() + usize::from(blanks);
        if len < self.min_len || self.table.is_empty() {
            return true;
        }
        let h = hash_counts(counts);
        match blanks {
            0 => self.holds(h),
            1 => self.holds(h.wrapping_add(KEYS[0])),
            2 => (1..27).any(|l| self.holds(h.wrapping_add(KEYS[l]).wrapping_add(KEYS[0]))),
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
        // Two blanks.
        assert!(set.may_hold(&counts("ETAIN"), 2));
        assert!(set.may_hold(&counts("QUXOTC"), 2));
        assert!(!set.may_hold(&counts("QQXOTC"), 2));
        // Words under the minimum length are not known: the answer is "maybe".
        assert!(set.may_hold(&counts("CAT"), 0));
        assert!(set.may_hold(&counts("XQ"), 0));
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
