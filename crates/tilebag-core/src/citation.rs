//! Which rule a message cites, in the book of the game's own preset (issue 27 item 5: an NSA
//! game cites NSA, a Literacy game the NSA rules it defers to, never another book).
//!
//! One table: each [`Rule`] is named by what it rules, with its number in each of the five
//! books. [`crate::Ruleset::citation`] picks the column of the ruleset's book. The rulebooks
//! themselves are not quoted here; `tests/citations.rs` checks that every number exists in its
//! book and is about the rule named.

/// A rule a refusal, an adjustment or a note cites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The first play: two tiles or more, one of them on the centre square.
    FirstPlay,
    /// Every later play: new tiles in one unbroken line on empty squares, touching the board.
    Placement,
    /// A blank played must be given its letter.
    BlankDesignation,
    /// An exchange needs a full rack's worth of tiles in the bag.
    ExchangeNeedsTilesInTheBag,
    /// Successive scoreless turns end the game, and each player loses their own rack.
    ScorelessTurns,
    /// The penalty for each minute over time.
    OvertimePenalty,
    /// What happens past the overtime limit.
    OvertimeLimit,
    /// Resigning: asked on one's own turn; what the opponent may do.
    Resigning,
    /// A player who leaves a game in progress, and its margin.
    LeavingTheGame,
    /// The director ends a game early; each player loses their own rack.
    DirectorEndsTheGame,
    /// The clocks stop while the director deals with the game.
    ClockNeutralised,
    /// Who goes first.
    FirstPlayer,
    /// The word list that judges the words (NASPA's international-lexicon preset cites VI.A).
    WordSource,
    /// The tile set: its letters, counts and values.
    TileSet,
    /// How many tiles a rack holds.
    RackSize,
    /// Whether an unsuccessful challenge of an out play costs the challenger.
    OutPlayChallenge,
    /// The clocks when a player goes out.
    OutPlayClock,
    /// How long a hold may last.
    HoldLimit,
    /// Each player's time (or Literacy's game clock).
    Clock,
    /// Overtime: its penalty and its limit.
    Overtime,
    /// The spread a bye scores.
    ByeSpread,
    /// The spread a forfeit scores.
    ForfeitSpread,
}

impl Rule {
    /// Every rule, for the test that checks each number against its book.
    pub const ALL: [Rule; 22] = [
        Rule::FirstPlay,
        Rule::Placement,
        Rule::BlankDesignation,
        Rule::ExchangeNeedsTilesInTheBag,
        Rule::ScorelessTurns,
        Rule::OvertimePenalty,
        Rule::OvertimeLimit,
        Rule::Resigning,
        Rule::LeavingTheGame,
        Rule::DirectorEndsTheGame,
        Rule::ClockNeutralised,
        Rule::FirstPlayer,
        Rule::WordSource,
        Rule::TileSet,
        Rule::RackSize,
        Rule::OutPlayChallenge,
        Rule::OutPlayClock,
        Rule::HoldLimit,
        Rule::Clock,
        Rule::Overtime,
        Rule::ByeSpread,
        Rule::ForfeitSpread,
    ];

    /// The rule's name in kebab case (the citations test keys its subject words by it).
    pub fn name(self) -> &'static str {
        match self {
            Rule::FirstPlay => "first-play",
            Rule::Placement => "placement",
            Rule::BlankDesignation => "blank-designation",
            Rule::ExchangeNeedsTilesInTheBag => "exchange-min-bag",
            Rule::ScorelessTurns => "six-zero",
            Rule::OvertimePenalty => "overtime-penalty",
            Rule::OvertimeLimit => "overtime-limit",
            Rule::Resigning => "resignation-option",
            Rule::LeavingTheGame => "resignation-margin",
            Rule::DirectorEndsTheGame => "director-shortened-deducts-racks",
            Rule::ClockNeutralised => "clock-neutralised",
            Rule::FirstPlayer => "first-player",
            Rule::WordSource => "word-source",
            Rule::TileSet => "tile-set",
            Rule::RackSize => "rack-size",
            Rule::OutPlayChallenge => "out-play-challenge-penalised",
            Rule::OutPlayClock => "out-play-clock",
            Rule::HoldLimit => "hold-limit",
            Rule::Clock => "clock",
            Rule::Overtime => "overtime",
            Rule::ByeSpread => "bye-spread",
            Rule::ForfeitSpread => "forfeit-spread",
        }
    }

    /// The rule's number in NASPA 2013, NSA 2011, WESPA 2010, SANSPA 1999 and Literacy 2018,
    /// in that order. Literacy 2018 defers to NSA wherever it says nothing itself.
    pub(crate) fn numbers(self) -> [&'static str; 5] {
        match self {
            Rule::FirstPlay => [
                "NASPA A.I.A",
                "NSA Appendix I.A",
                "WESPA 3.10.16(a)",
                "SANSPA 5.1.1",
                "Literacy play",
            ],
            Rule::Placement => [
                "NASPA A.I.B",
                "NSA Appendix I.B",
                "WESPA 3.10.16(a)",
                "SANSPA 5.1.4",
                "Literacy play",
            ],
            Rule::BlankDesignation => [
                "NASPA IV.F.1",
                "NSA IV.F.1",
                "WESPA 3.8",
                "SANSPA 12.1",
                "Literacy play",
            ],
            Rule::ExchangeNeedsTilesInTheBag => [
                "NASPA IV.E.2.a",
                "NSA IV.E.2.a",
                "WESPA 3.2.1",
                "SANSPA 10.2",
                "NSA IV.E.2.a (Literacy defers to NSA)",
            ],
            Rule::ScorelessTurns => [
                "NASPA V.B",
                "NSA V.C",
                "WESPA 5.2",
                "SANSPA 18.1",
                "NSA V.C (Literacy defers to NSA)",
            ],
            Rule::OvertimePenalty => [
                "NASPA V.G.2",
                "NSA V.F.2",
                "WESPA 5.3.2",
                "SANSPA 18.5",
                "NSA V.F.2 (Literacy defers to NSA)",
            ],
            Rule::OvertimeLimit => [
                "NASPA V.G.3",
                "NSA V.F.2",
                "WESPA 5.3.3",
                "SANSPA 18.5",
                "NSA V.F.2 (Literacy defers to NSA)",
            ],
            Rule::Resigning => [
                "NASPA I.B",
                "NSA I.B",
                "WESPA 5.7(b)",
                "SANSPA 19.3",
                "NSA I.B (Literacy defers to NSA)",
            ],
            Rule::LeavingTheGame => [
                "NASPA V.K.2",
                "NSA V.J.2",
                "WESPA 5.7(c)",
                "SANSPA 19.3",
                "NSA V.J.2 (Literacy defers to NSA)",
            ],
            Rule::DirectorEndsTheGame => [
                "NASPA V.F",
                "NSA V.E",
                "not in WESPA 2010 (the director's call)",
                "not in SANSPA 1999 (the director's call)",
                "NSA V.E (Literacy defers to NSA)",
            ],
            Rule::ClockNeutralised => [
                "NASPA II.A",
                "NSA II.A",
                "WESPA 4.1",
                "SANSPA 14",
                "NSA II.A (Literacy defers to NSA)",
            ],
            Rule::WordSource => [
                "NASPA III.A.1",
                "NSA III.A.1",
                "WESPA 1.2",
                "SANSPA 3",
                "Literacy header",
            ],
            Rule::FirstPlayer => [
                "NASPA III.D",
                "NSA III.D",
                "WESPA 2.1",
                "SANSPA 6.4",
                "Literacy play",
            ],
            Rule::TileSet => [
                "NASPA III.A.2",
                "NSA III.A.2",
                "WESPA 1.3.1",
                "SANSPA 4.6, 18.7",
                "Literacy scoring 1",
            ],
            Rule::RackSize => [
                "NASPA IV.B.4.a",
                "NSA IV.B.4.b",
                "WESPA 3.9.5",
                "SANSPA 6.5",
                "Literacy play",
            ],
            Rule::OutPlayChallenge => [
                "NASPA IV.I.3",
                "NSA V.C note",
                "WESPA 3.10.15(b)",
                "SANSPA 18.2",
                "NSA V.C note (Literacy defers to NSA)",
            ],
            Rule::OutPlayClock => [
                "NASPA V.E",
                "NSA V.D",
                "WESPA 5.1.2, 5.1.3",
                "SANSPA 18.2",
                "Literacy play",
            ],
            Rule::HoldLimit => [
                "NASPA IV.I.2",
                "NSA IV.I.2",
                "WESPA 3.10.5",
                "SANSPA 13.1",
                "NSA IV.I.2 (Literacy defers to NSA)",
            ],
            Rule::Clock => [
                "NASPA III.A.3, V.G.2",
                "NSA III.A.3",
                "WESPA 5.3.5",
                "SANSPA 4.4",
                "Literacy play",
            ],
            Rule::Overtime => [
                "NASPA V.G.2, V.G.3",
                "NSA V.F.2",
                "WESPA 5.3.2, 5.3.3",
                "SANSPA 18.5",
                "Literacy play",
            ],
            Rule::ByeSpread => [
                "NASPA V.K.4",
                "NSA V.J.4",
                "not in WESPA 2010 (the organiser's choice)",
                "SANSPA 19.1",
                "NSA V.J.4 (Literacy defers to NSA)",
            ],
            Rule::ForfeitSpread => [
                "NASPA V.K.1",
                "NSA V.J.1",
                "WESPA 2.3.6(a)",
                "SANSPA 19.2",
                "NSA V.J.1 (Literacy defers to NSA)",
            ],
        }
    }
}

/// The column of a book in [`Rule::numbers`].
pub(crate) fn column(book: &str) -> usize {
    match book {
        "NASPA" => 0,
        "NSA" => 1,
        "WESPA" => 2,
        "SANSPA" => 3,
        _ => 4,
    }
}
