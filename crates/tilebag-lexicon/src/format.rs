//! The built lexicon file (`.tblex`): one file, little-endian throughout.
//!
//! ```text
//! offset  size  field
//! 0       6     magic "TBLEX\0"
//! 6       2     format version (u16) = 1
//! 8       4     section count N (u32), 1..=64
//! 12      4     reserved (u32), written 0, ignored when read
//! 16      16*N  section table; each entry:
//!                 tag     4 bytes  (e.g. "META", "DAWG")
//!                 flags   u32      bit 0 = REQUIRED: a reader that does not know the tag must
//!                                  refuse the file; other bits reserved (written 0)
//!                 offset  u32      from the start of the file, a multiple of 4
//!                 length  u32      in bytes
//! ...           section payloads, 4-byte aligned, inside the file, not overlapping
//! len-4   4     CRC-32 (IEEE 802.3, as zlib) of every byte before it
//! ```
//!
//! Sections of version 1 (each exactly once, both required):
//!
//! - `META`: `word_count` u32; `dropped_long` u32 (source words over 15 letters, not built in);
//!   `counts_by_length` 16 x u32 (index = length, index 0 is 0); the source list's fingerprint
//!   (`word_count` u32, `two_letter_count` u32, flags u32: bit 0 QI, bit 1 EUOI, bit 2 OK);
//!   `name` (u32 byte length + UTF-8); `description` (u32 byte length + UTF-8). Bytes after the
//!   description are ignored, so later writers may append fields.
//! - `DAWG`: the edges, one u32 each (see [`crate::dawg`] for the bit layout).
//!
//! And optional sections (no REQUIRED flag, so older readers skip them), each at most once:
//!
//! - `GDAG`: the GADDAG for move generation, one u32 per edge (see [`crate::gaddag`]). A file
//!   without it (written before it existed) still loads; the GADDAG is then built in memory.
//! - `GDGP`: the same GADDAG packed (see [`crate::gaddag::pack_edges`]); what files carry now.
//! - `AUTO`: the move generator's node table (see [`crate::automaton`]): the GADDAG's root node
//!   u32, the DAWG's root node u32, then the table, one u32 a word. Only the built-in ENABLE
//!   image (`data/ENABLE1.tblex`) carries it, and only the built-in list reads it:
//!   [`crate::Lexicon::from_bytes`] skips it, because a table from an arbitrary file would have
//!   to be checked against the file's DAWG and GADDAG, which costs as much as making it.
//!
//! # Growing the format
//!
//! The section table is how the format grows without breaking: a GADDAG (or any other structure
//! for move generation) will be a new section, e.g. tag `GDAG`, written *without* the REQUIRED bit.
//! Readers of version 1 skip sections they do not know unless they are marked REQUIRED, so files
//! with a GADDAG still load here as judges; a reader that needs the GADDAG looks for its tag.
//! The version number changes only for changes that old readers must not misread (a different
//! META or DAWG layout): such files are refused with [`LexiconError::UnsupportedVersion`].
//!
//! Reading checks the magic, the version, the checksum, the section table (bounds, alignment,
//! overlap, duplicates), and then every edge of the DAWG (see [`crate::dawg`]);
//! the counts in META must equal those computed from the graph.

use crate::error::LexiconError;

/// The first six bytes of every lexicon file.
pub const MAGIC: &[u8; 6] = b"TBLEX\0";
/// The format version this crate writes and reads.
pub const VERSION: u16 = 1;
/// Section flag: readers that do not know the section must refuse the file.
pub const FLAG_REQUIRED: u32 = 1;
/// Tag of the metadata section.
pub const TAG_META: [u8; 4] = *b"META";
/// Tag of the DAWG section.
pub const TAG_DAWG: [u8; 4] = *b"DAWG";
/// Tag of the GADDAG section (optional: files written before it existed still load, and the
/// GADDAG is then built in memory when a move generator first needs it).
pub const TAG_GDAG: [u8; 4] = *b"GDAG";
/// Tag of the packed GADDAG section that `lexicon build` writes now: the same edges, a byte of
/// letter and flags each plus its arc as a variable-length number (see
/// [`crate::gaddag::pack_edges`]); about two thirds of the size. Readers that predate it skip
/// it (not REQUIRED) and build the GADDAG in memory; this reader takes either section.
pub const TAG_GDAG_PACKED: [u8; 4] = *b"GDGP";
/// Tag of the prebuilt node table of the move generator (optional; only the built-in image has
/// it, and only the built-in list reads it: see the module documentation).
pub const TAG_AUTO: [u8; 4] = *b"AUTO";

const HEADER_LEN: usize = 16;
const ENTRY_LEN: usize = 16;
const MAX_SECTIONS: usize = 64;

/// One section of a file being written or read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Section<'a> {
    pub tag: [u8; 4],
    pub flags: u32,
    pub data: &'a [u8],
}

/// Writes a file from its sections (in the given order) and seals it with the checksum.
pub(crate) fn write(sections: &[Section<'_>]) -> Vec<u8> {
    let table_end = HEADER_LEN + ENTRY_LEN * sections.len();
    let payload: usize = sections
        .iter()
        .map(|s| s.data.len().next_multiple_of(4))
        .sum();
    let mut out = Vec::with_capacity(table_end + payload + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut offset = table_end;
    for s in sections {
        out.extend_from_slice(&s.tag);
        out.extend_from_slice(&s.flags.to_le_bytes());
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        out.extend_from_slice(&(s.data.len() as u32).to_le_bytes());
        offset += s.data.len().next_multiple_of(4);
    }
    for s in sections {
        out.extend_from_slice(s.data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    seal(&mut out);
    out
}

/// The length of the file [`write`] makes of sections of these payload lengths.
pub(crate) fn file_len(payloads: &[usize]) -> usize {
    let payload: usize = payloads.iter().map(|n| n.next_multiple_of(4)).sum();
    HEADER_LEN + ENTRY_LEN * payloads.len() + payload + 4
}

/// Appends the CRC-32 of `out`.
fn seal(out: &mut Vec<u8>) {
    let crc = crc32(out);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// Rewrites the trailing checksum of `bytes` to match the rest (no-op if shorter than 4 bytes).
/// For fuzzing and tests: it lets a mutated file get past the checksum to the structural checks.
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= 4 {
        let n = bytes.len() - 4;
        let crc = crc32(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
    }
}

/// Reads the section table of a file, after checking magic, version and checksum. Returns the
/// known sections with the byte offset of each payload.
pub(crate) fn read(bytes: &[u8]) -> Result<Vec<(Section<'_>, usize)>, LexiconError> {
    read_sections(bytes, true)
}

/// [`read`], with the checksum checked only when `check_sum` is set: the built-in image is part
/// of the program (and compared byte for byte with a fresh build by a test), so its 8.7 MB need
/// no CRC on every start; everything else is checked as for a file.
pub(crate) fn read_sections(
    bytes: &[u8],
    check_sum: bool,
) -> Result<Vec<(Section<'_>, usize)>, LexiconError> {
    let len = bytes.len();
    if len < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            truncated("the magic bytes", 0, MAGIC.len(), len)
        } else {
            LexiconError::BadMagic
        });
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(LexiconError::BadMagic);
    }
    let version = u16_at(bytes, 6, "the format version")?;
    if version != VERSION {
        return Err(LexiconError::UnsupportedVersion {
            found: version,
            supported: VERSION,
        });
    }
    if len < HEADER_LEN + 4 {
        return Err(truncated("the header and checksum", 0, HEADER_LEN + 4, len));
    }
    let body = len - 4;
    let stored = u32_at(bytes, body, "the checksum")?;
    let computed = if check_sum {
        crc32(&bytes[..body])
    } else {
        stored
    };
    if stored != computed {
        return Err(LexiconError::Checksum {
            stored,
            computed,
            covered: body,
        });
    }
    let count = u32_at(bytes, 8, "the section count")? as usize;
    if count == 0 || count > MAX_SECTIONS {
        return Err(LexiconError::corrupt(
            8,
            format!("section count {count} is outside 1..={MAX_SECTIONS}"),
        ));
    }
    let table_end = HEADER_LEN + ENTRY_LEN * count;
    if table_end > body {
        return Err(truncated("the section table", HEADER_LEN, table_end, body));
    }
    let mut out: Vec<(Section<'_>, usize)> = Vec::with_capacity(count);
    let mut spans: Vec<(usize, usize, usize)> = Vec::with_capacity(count);
    for k in 0..count {
        let entry = HEADER_LEN + ENTRY_LEN * k;
        let mut tag = [0u8; 4];
        tag.copy_from_slice(&bytes[entry..entry + 4]);
        let flags = u32_at(bytes, entry + 4, "a section flag")?;
        let offset = u32_at(bytes, entry + 8, "a section offset")? as usize;
        let length = u32_at(bytes, entry + 12, "a section length")? as usize;
        let name = String::from_utf8_lossy(&tag).into_owned();
        if offset % 4 != 0 || offset < table_end {
            return Err(LexiconError::corrupt(
                entry + 8,
                format!("section {name:?} starts at byte {offset}: it must be 4-aligned and after the section table (byte {table_end})"),
            ));
        }
        let end = offset.saturating_add(length);
        if end > body {
            return Err(LexiconError::corrupt(
                entry + 12,
                format!("section {name:?} spans bytes {offset}..{end}, past the end of the data at byte {body}"),
            ));
        }
        spans.push((offset, end, entry));
        let known = [TAG_META, TAG_DAWG, TAG_GDAG, TAG_GDAG_PACKED, TAG_AUTO].contains(&tag);
        if known {
            if out.iter().any(|(s, _)| s.tag == tag) {
                return Err(LexiconError::corrupt(
                    entry,
                    format!("section {name:?} appears twice"),
                ));
            }
            out.push((
                Section {
                    tag,
                    flags,
                    data: &bytes[offset..end],
                },
                offset,
            ));
        } else if flags & FLAG_REQUIRED != 0 {
            return Err(LexiconError::UnknownRequiredSection {
                tag: name,
                offset: entry,
            });
        }
    }
    spans.sort_unstable();
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(LexiconError::corrupt(
                pair[1].2,
                format!(
                    "the section at bytes {}..{} overlaps the one at {}..{}",
                    pair[1].0, pair[1].1, pair[0].0, pair[0].1
                ),
            ));
        }
    }
    Ok(out)
}

fn truncated(what: &'static str, start: usize, end: usize, len: usize) -> LexiconError {
    LexiconError::Truncated {
        what,
        start,
        end,
        len,
    }
}

/// A bounds-checked little-endian reader over a section payload that reports file offsets.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8], base: usize) -> Self {
        Reader { data, pos: 0, base }
    }

    /// File offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], LexiconError> {
        let end = self.pos.saturating_add(n);
        if end > self.data.len() {
            return Err(truncated(
                what,
                self.offset(),
                self.base.saturating_add(end),
                self.base + self.data.len(),
            ));
        }
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, LexiconError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A length-prefixed UTF-8 string.
    pub(crate) fn string(&mut self, what: &'static str) -> Result<String, LexiconError> {
        let at = self.offset();
        let n = self.u32(what)? as usize;
        let b = self.bytes(n, what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| LexiconError::corrupt(at, format!("{what} is not valid UTF-8")))
    }
}

/// Little-endian `u32` words: read in place when the bytes are aligned for them and the machine
/// is little-endian (the built-in image's sections: see `crate::builtin`), else copied. `None`
/// if the bytes are not a whole number of words.
pub(crate) fn le_words(bytes: &'static [u8]) -> Option<std::borrow::Cow<'static, [u32]>> {
    if bytes.len() % 4 != 0 {
        return None;
    }
    #[cfg(target_endian = "little")]
    {
        // SAFETY: every bit pattern is a valid `u32`, and `align_to` hands out as the middle
        // part only what is correctly aligned for it; the bytes live as long as the program.
        let (head, words, tail) = unsafe { bytes.align_to::<u32>() };
        if head.is_empty() && tail.is_empty() {
            return Some(std::borrow::Cow::Borrowed(words));
        }
    }
    Some(std::borrow::Cow::Owned(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    ))
}

fn u16_at(bytes: &[u8], at: usize, what: &'static str) -> Result<u16, LexiconError> {
    match bytes.get(at..at + 2) {
        Some(b) => Ok(u16::from_le_bytes([b[0], b[1]])),
        None => Err(truncated(what, at, at + 2, bytes.len())),
    }
}

fn u32_at(bytes: &[u8], at: usize, what: &'static str) -> Result<u32, LexiconError> {
    match bytes.get(at..at + 4) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(truncated(what, at, at + 4, bytes.len())),
    }
}

/// CRC-32 (IEEE 802.3 polynomial, reflected; the zlib/PNG checksum), slicing by 8.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let lo = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let hi = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
        crc = CRC_TABLES[7][(lo & 0xFF) as usize]
            ^ CRC_TABLES[6][((lo >> 8) & 0xFF) as usize]
            ^ CRC_TABLES[5][((lo >> 16) & 0xFF) as usize]
            ^ CRC_TABLES[4][(lo >> 24) as usize]
            ^ CRC_TABLES[3][(hi & 0xFF) as usize]
            ^ CRC_TABLES[2][((hi >> 8) & 0xFF) as usize]
            ^ CRC_TABLES[1][((hi >> 16) & 0xFF) as usize]
            ^ CRC_TABLES[0][(hi >> 24) as usize];
    }
    for &b in chunks.remainder() {
        crc = CRC_TABLES[0][((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

static CRC_TABLES: [[u32; 256]; 8] = crc_tables();

const fn crc_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut i = 0;
    while i < 256 {
        let mut s = 1;
        while s < 8 {
            let prev = t[s - 1][i];
            t[s][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            s += 1;
        }
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        // Every length through the slicing boundary agrees with the bytewise definition.
        let data: Vec<u8> = (0..100u32).map(|i| (i * 37 + 11) as u8).collect();
        for n in 0..data.len() {
            let mut crc = !0u32;
            for &b in &data[..n] {
                crc = CRC_TABLES[0][((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
            }
            assert_eq!(crc32(&data[..n]), !crc, "length {n}");
        }
    }

    #[test]
    fn unknown_optional_sections_are_skipped_required_refused() {
        let meta = [1u8, 2, 3];
        let extra = [9u8; 5];
        let dawg = [0u8; 4];
        let ok = write(&[
            Section {
                tag: TAG_META,
                flags: FLAG_REQUIRED,
                data: &meta,
            },
            Section {
                tag: *b"XTRA",
                flags: 0,
                data: &extra,
            },
            Section {
                tag: TAG_DAWG,
                flags: FLAG_REQUIRED,
                data: &dawg,
            },
        ]);
        let secs = read(&ok).unwrap();
        assert_eq!(secs.len(), 2);
        assert_eq!(secs[0].0.data, &meta);
        let bad = write(&[
            Section {
                tag: TAG_META,
                flags: FLAG_REQUIRED,
                data: &meta,
            },
            Section {
                tag: *b"XTRA",
                flags: FLAG_REQUIRED,
                data: &extra,
            },
        ]);
        assert!(matches!(
            read(&bad),
            Err(LexiconError::UnknownRequiredSection { .. })
        ));
    }

    #[test]
    fn header_errors() {
        assert!(matches!(read(b"TBL"), Err(LexiconError::Truncated { .. })));
        assert!(matches!(read(b"HELLO WORLD"), Err(LexiconError::BadMagic)));
        let mut v = write(&[Section {
            tag: TAG_META,
            flags: 1,
            data: &[],
        }]);
        v[6] = 2;
        assert!(matches!(
            read(&v),
            Err(LexiconError::UnsupportedVersion { found: 2, .. })
        ));
        let mut v = write(&[Section {
            tag: TAG_META,
            flags: 1,
            data: &[],
        }]);
        let n = v.len();
        v[n - 1] ^= 1;
        assert!(matches!(read(&v), Err(LexiconError::Checksum { .. })));
    }

    #[test]
    fn overlapping_and_duplicate_sections() {
        let mut v = write(&[
            Section {
                tag: TAG_META,
                flags: 1,
                data: &[0; 8],
            },
            Section {
                tag: TAG_DAWG,
                flags: 1,
                data: &[0; 8],
            },
        ]);
        // Make the DAWG section start where META starts.
        let meta_off = v[16 + 8..16 + 12].to_vec();
        v[32 + 8..32 + 12].copy_from_slice(&meta_off);
        reseal(&mut v);
        assert!(read(&v).unwrap_err().to_string().contains("overlaps"));
        let v = write(&[
            Section {
                tag: TAG_META,
                flags: 1,
                data: &[0; 8],
            },
            Section {
                tag: TAG_META,
                flags: 1,
                data: &[0; 8],
            },
        ]);
        assert!(read(&v).unwrap_err().to_string().contains("twice"));
    }
}
