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
}

impl Rule {
    /// Every rule, for the test that checks each number against its book.
    pub const ALL: [Rule; 12] = [
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
            Rule::FirstPlayer => [
                "NASPA III.D",
                "NSA III.D",
                "WESPA 2.1",
                "SANSPA 6.4",
                "Literacy play",
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
