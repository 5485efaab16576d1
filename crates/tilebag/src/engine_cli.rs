//! The engine's commands: `moves`, `analyze`, `selfplay`, `leaves train`, `leaves convert`,
//! `bench movegen`, and the CGP of a record's position (`gcg show --cgp`).

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tilebag_core::gcg::{write_gcg, GcgPlayer, GcgRecord};
use tilebag_core::replay::{game_to_gcg, verify_record, Completion, Replayer};
use tilebag_core::ruleset::Ruleset;
use tilebag_engine::analysis::analyze;
use tilebag_engine::bot::simulate;
use tilebag_engine::engine::Situation;
use tilebag_engine::leaves::Leaves;
use tilebag_engine::match_stats::{GameResult, MatchSummary};
use tilebag_engine::movegen::{best_by_score, generate, GenOptions, Graphs, Prepared};
use tilebag_engine::selfplay::play_game_with;
use tilebag_engine::table_train::{train_tables, Start, Step, TableTrainConfig, TrainState};
use tilebag_engine::train::{train, TrainConfig};
use tilebag_engine::{CgpPosition, Engine, Grid, Level, Move, MoveKind, Rack, SimConfig, Tables};
use tilebag_engine::{LeaveFormat, LeaveTable};
use tilebag_lexicon::{Lexicon, WordSource};

#[derive(Args)]
pub struct MovesArgs {
    /// A CGP line (BOARD RACK/OPPRACK SCORE/OPPSCORE ZEROS [op value;...]); or use --gcg.
    pub cgp: Option<String>,
    /// A game record: the position before event --turn (1 = the first move).
    #[arg(long)]
    pub gcg: Option<PathBuf>,
    /// With --gcg: list the moves for this event of the record (1-based).
    #[arg(long)]
    pub turn: Option<usize>,
    /// A built lexicon, word list or layered config (default: built-in ENABLE, or the CGP's
    /// `lex` op if it names a file or ENABLE; another name is an error). Takes precedence over
    /// the `lex` op.
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    /// The ruleset whose exchange rule applies (an exchange needs this many tiles in the bag:
    /// NASPA IV.E.2.a, WESPA 3.2.1(a), SANSPA 10.2).
    #[arg(long, default_value = "naspa-2013")]
    pub preset: String,
    /// How many moves to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// List every move.
    #[arg(long)]
    pub all: bool,
    /// Rank by the simulating level instead of static equity (the time budget in ms).
    #[arg(long)]
    pub sim_ms: Option<u64>,
    /// Leave values: a .klv2 or .klv file (wolges, MAGPIE), text `LEAVE VALUE` lines, or
    /// tilebag's weights (default: the built-in ENABLE table).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    /// The ruleset whose exchange rule applies to the moves found (NASPA IV.E.2.a, WESPA
    /// 3.2.1(a), SANSPA 10.2).
    #[arg(long, default_value = "naspa-2013")]
    pub preset: String,
    /// Best moves to show for each turn.
    #[arg(long, default_value_t = 3)]
    pub top: usize,
    /// Write the record back with the analysis as `#note` lines to this file.
    #[arg(long, value_name = "OUT.gcg")]
    pub gcg: Option<PathBuf>,
    /// Leave values: a .klv2 or .klv file (wolges, MAGPIE), text `LEAVE VALUE` lines, or
    /// tilebag's weights (default: the built-in ENABLE table).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

#[derive(Args)]
pub struct SelfplayArgs {
    /// Games to play, in pairs: each bag twice, the seats swapped (an odd number is rounded
    /// up).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The two bots, e.g. `static,beginner` (levels: beginner, static, sim); a bot may name
    /// its own leave file: `static,static:leaves.klv2`. The win rate is the first bot's.
    #[arg(long, default_value = "static,static")]
    pub bots: String,
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    #[arg(long, default_value = "naspa-2013")]
    pub preset: String,
    /// Write each game's GCG here.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// First seed (pair k, both its games, uses seed + k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads playing games (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The simulating level's thinking time per move, in ms.
    #[arg(long, default_value_t = 300)]
    pub sim_ms: u64,
    /// Leave values for a bot that names none: a .klv2 or .klv file (wolges, MAGPIE), text
    /// `LEAVE VALUE` lines, or tilebag's weights (default: the built-in ENABLE table).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum LeavesCommand {
    /// Learn leave values by self-play, with a progress bar. With `--full` (or an output
    /// named .klv2/.klv): a full table, one value per leave, trained from nothing in
    /// generations; resumable from its state file (run the same command again). Otherwise
    /// tilebag's small weights model; resumable with --resume.
    Train {
        #[arg(long)]
        lexicon: Option<PathBuf>,
        /// Weights model: games of self-play to train on (in all, counting those already in
        /// the file).
        #[arg(long, default_value_t = 20000)]
        games: u64,
        #[arg(short = 'o', long)]
        output: PathBuf,
        /// Weights model: go on from the weights in the output file, if it exists.
        #[arg(long)]
        resume: bool,
        /// Threads playing games (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Train a full leave table (the default for an output named .klv2 or .klv).
        #[arg(long)]
        full: bool,
        /// Full table: generations in all (counting those already in the state file).
        #[arg(long, default_value_t = 4)]
        generations: u32,
        /// Full table: games of self-play per generation.
        #[arg(long, default_value_t = 20000)]
        games_per_generation: u64,
        /// Full table: the state file (default: OUTPUT.state); if it exists, training goes on
        /// from it.
        #[arg(long, value_name = "FILE")]
        state: Option<PathBuf>,
        /// Full table: what generation 0 plays with: `zero` (every leave 0) or `weights`
        /// (tilebag's built-in weights model).
        #[arg(long, default_value = "zero")]
        start: String,
        /// Full table: the weight, in games' samples, of a leave's prior from its sub-leaves
        /// (default: estimated from the data for each leave length).
        #[arg(long)]
        prior_weight: Option<f64>,
        /// Full table: what each generation keeps of the previous ones' samples (0 to 1).
        #[arg(long, default_value_t = 0.5)]
        carry: f64,
        /// Full table: leaves valued by rollout at each turn of a game (every leave the rack
        /// could keep, up to this many, each filled up from the unseen tiles and played on the
        /// same board); 0: each leave kept is valued by the turn that followed it.
        #[arg(long, default_value_t = tilebag_engine::table_train::DEFAULT_ROLLOUTS)]
        rollouts: usize,
        /// Full table: also write each generation's table as OUTPUT-STEM.genN.EXT.
        #[arg(long)]
        keep_generations: bool,
        /// Full table: the seed of the games' bags.
        #[arg(long, default_value_t = 0x7AB1E)]
        seed: u64,
    },
    /// Convert a leave file: IN is a .klv2 or .klv file (wolges, MAGPIE), text `LEAVE VALUE`
    /// lines, or tilebag's weights (evaluated on every leave); OUT is written as .klv2 or .klv
    /// by its extension, otherwise as text. English tiles, leaves of 1–6 tiles.
    Convert { input: PathBuf, output: PathBuf },
}

#[derive(Args)]
pub struct BenchMovegenArgs {
    /// A file of CGP lines.
    pub positions: PathBuf,
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    /// Only the best move by score (1), instead of every move.
    #[arg(long)]
    pub top: Option<usize>,
    /// Passes over the file (the figures are for the fastest).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
}

#[derive(Args)]
pub struct BenchEndgameArgs {
    /// A file of CGP lines.
    pub positions: PathBuf,
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    /// Thinking time of the deeper search per move, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub ms: u64,
    /// Positions to play at most (the first usable lines of the file).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Threads of each deeper search; the positions are played on the cores left (at least
    /// one at a time).
    #[arg(long, default_value_t = 1)]
    pub search_threads: usize,
}

/// Opens the lexicon the user named (or ENABLE) as a generator's lexicon.
fn generator_lexicon(path: Option<&Path>) -> Result<Lexicon> {
    let source = tilebag_lexicon::open_lexicon_or_builtin(path).map_err(|e| {
        // The error names the file (and the place in it); say which file only if it does not.
        let shown = path.map_or("built-in ENABLE".into(), |p| p.display().to_string());
        let msg = e.to_string();
        if msg.contains(&shown) {
            anyhow::anyhow!(msg)
        } else {
            anyhow::anyhow!("{shown}: {msg}")
        }
    })?;
    let lex = source.generator_lexicon()?.into_owned();
    // A built file from before the GADDAG section (a word list or a layered source is
    // compiled in memory anyway).
    if !lex.gaddag_from_file() && matches!(source, WordSource::Built { .. }) {
        eprintln!(
            "note: {} has no GADDAG section (built before it existed): building it in memory; \
             `tilebag lexicon build` writes files that have it",
            path.map_or("the lexicon".into(), |p| p.display().to_string())
        );
    }
    Ok(lex)
}

/// The leave table `--leaves FILE` names (`.klv2`, `.klv`, text `LEAVE VALUE` lines, or
/// tilebag's weights), or the built-in ENABLE table.
fn leave_table(path: Option<&Path>) -> Result<Cow<'static, LeaveTable>> {
    match path {
        None => Ok(Cow::Borrowed(LeaveTable::enable())),
        Some(p) => Ok(Cow::Owned(LeaveTable::read_file(p)?)),
    }
}

fn leaves_for(path: Option<&Path>) -> Result<Leaves> {
    match path {
        None => Ok(Leaves::enable().clone()),
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| p.display().to_string())?;
            Leaves::parse(&text)
                .map_err(anyhow::Error::msg)
                .with_context(|| p.display().to_string())
        }
    }
}

fn rack_leave(m: &Move, rack: &Rack) -> String {
    rack.minus(&m.used()).to_string()
}

fn print_moves(moves: &[Move], rack: &Rack, grid: &Grid, n: usize) {
    println!(
        "{:>4}  {:<6} {:<17} {:>5} {:>8}  leave",
        "#", "pos", "move", "score", "equity"
    );
    for (i, m) in moves.iter().take(n).enumerate() {
        let (pos, word) = match m.kind {
            MoveKind::Place => (m.coordinate(), m.word_on(grid)),
            MoveKind::Exchange => ("exch".into(), format!("-{}", m.used())),
            MoveKind::Pass => ("pass".into(), "-".into()),
        };
        println!(
            "{:>4}  {:<6} {:<17} {:>5} {:>8.1}  {}",
            i + 1,
            pos,
            word,
            m.score,
            m.equity,
            rack_leave(m, rack)
        );
    }
}

/// The position of a record before event `turn` (1-based), as a CGP line's parts.
fn position_of_record(file: &Path, turn: usize, tables: &Tables) -> Result<CgpPosition> {
    let record = crate::gcg_cli::open_record(file)?;
    let mut r = Replayer::new(&record);
    let mut steps = 1;
    while steps < turn {
        match r.step() {
            Ok(true) => steps += 1,
            Ok(false) => bail!(
                "{}: the record has only {} events",
                file.display(),
                steps - 1
            ),
            Err(e) => bail!("{}:{}: {}", file.display(), e.line, e.message),
        }
    }
    let Some(ev) = r.peek() else {
        bail!(
            "{}: no event {turn} (the record has {} events)",
            file.display(),
            steps - 1
        )
    };
    let rack_text = ev.rack.clone().unwrap_or_default();
    let rack = Rack::parse(&rack_text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}: the rack {rack_text:?}: {e}",
            file.display(),
            ev.line
        )
    })?;
    let me = ev.player;
    let pos = CgpPosition {
        grid: Grid::from_board(&r.board),
        rack,
        opp_rack: Rack::default(),
        scores: [r.scores[me], r.scores[1 - me]],
        zeros: 0,
        ops: Vec::new(),
    };
    let _ = tables;
    Ok(pos)
}

/// The ruleset `--preset` names, and the engine's tables for it.
fn preset_tables(preset: &str) -> Result<(Ruleset, Tables)> {
    let ruleset = Ruleset::preset(preset).map_err(|e| anyhow::anyhow!("--preset: {e}"))?;
    let tables = Engine::tables_for(&ruleset)?;
    Ok((ruleset, tables))
}

/// The lexicon file `moves` reads: `--lexicon` if given (it takes precedence over the
/// position's `lex` field, and says so when there is one); else the position's `lex` field if
/// it names a file here, or nothing (the built-in list) if it names ENABLE; any other name is
/// an error that names the field, rather than a silent fallback to a different word list.
fn moves_lexicon_path(explicit: Option<&Path>, lex_field: Option<&str>) -> Result<Option<PathBuf>> {
    let field = lex_field.map(str::trim).filter(|f| !f.is_empty());
    match (explicit, field) {
        (Some(p), Some(name)) => {
            eprintln!(
                "note: --lexicon {} takes precedence over the position's lex field ({name:?})",
                p.display()
            );
            Ok(Some(p.to_path_buf()))
        }
        (Some(p), None) => Ok(Some(p.to_path_buf())),
        (None, None) => Ok(None),
        (None, Some(name)) => {
            let path = PathBuf::from(name);
            if path.exists() {
                Ok(Some(path))
            } else if ["enable", "enable1"].contains(&name.to_ascii_lowercase().as_str())
                || name == tilebag_lexicon::BUILTIN_NAME
            {
                Ok(None)
            } else {
                bail!(
                    "the position's lex field names the lexicon {name:?}, which is neither a \
                     file here nor the built-in ENABLE (lex ENABLE1;); give its file with \
                     --lexicon FILE, which takes precedence over the field"
                )
            }
        }
    }
}

pub fn moves(args: MovesArgs) -> Result<ExitCode> {
    let (ruleset, tables) = preset_tables(&args.preset)?;
    let pos = match (&args.cgp, &args.gcg) {
        (Some(line), None) => CgpPosition::parse(line, &tables)?,
        (None, Some(file)) => {
            let turn = args
                .turn
                .context("--gcg needs --turn N (the event whose position to list)")?;
            position_of_record(file, turn, &tables)?
        }
        (Some(_), Some(_)) => bail!("give a CGP line or --gcg FILE, not both"),
        (None, None) => bail!("give a CGP line, or --gcg FILE --turn N"),
    };
    let lex_path = moves_lexicon_path(args.lexicon.as_deref(), pos.op("lex"))?;
    let lex = generator_lexicon(lex_path.as_deref())?;
    let leaves = leave_table(args.leaves.as_deref())?;
    let engine = Engine::new(&lex, &tables, &*leaves, ruleset.exchange_min_bag);
    let s = Situation::from_cgp(&pos, &tables);
    let n = if args.all { usize::MAX } else { args.top };
    if let Some(ms) = args.sim_ms {
        let cfg = SimConfig {
            budget: Duration::from_millis(ms),
            candidates: args.top.max(2),
            max_iterations: 100_000,
            ..SimConfig::default()
        };
        let (_, stats) = simulate(&engine, &s, 1, cfg);
        println!(
            "{:>4}  {:<6} {:<17} {:>5} {:>8} {:>9}",
            "#", "pos", "move", "score", "equity", "sim mean"
        );
        for (i, (m, mean, iters)) in stats.iter().enumerate() {
            println!(
                "{:>4}  {:<6} {:<17} {:>5} {:>8.1} {:>9.2}  ({iters} iterations)",
                i + 1,
                m.coordinate(),
                m.word_on(&s.grid),
                m.score,
                m.equity,
                mean
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut list = engine.moves(&s);
    if s.bag_len == 0 && !s.unseen.is_empty() {
        for m in list.iter_mut() {
            if m.kind != MoveKind::Exchange {
                m.equity = engine.endgame_value(&s, m);
            }
        }
        list.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        println!("(bag empty: equity is the 2-ply endgame value, spread gained)");
    }
    let placements = list.iter().filter(|m| m.kind == MoveKind::Place).count();
    println!(
        "rack {}: {} placements{}",
        s.rack,
        placements,
        if s.bag_len >= engine.exchange_min_bag {
            ", exchanges and pass"
        } else {
            " and pass"
        }
    );
    print_moves(&list, &s.rack, &s.grid, n);
    Ok(ExitCode::SUCCESS)
}

pub fn analyze_cmd(args: AnalyzeArgs) -> Result<ExitCode> {
    let record = crate::gcg_cli::open_record(&args.file)?;
    let (ruleset, tables) = preset_tables(&args.preset)?;
    let lex = generator_lexicon(args.lexicon.as_deref())?;
    let leaves = leave_table(args.leaves.as_deref())?;
    let engine = Engine::new(&lex, &tables, &*leaves, ruleset.exchange_min_bag);
    let (turns, totals) = analyze(&record, &engine, args.top)
        .map_err(|e| anyhow::anyhow!("{}:{}: {}", args.file.display(), e.line, e.message))?;
    let nick = |p: usize| record.players[p].nick.clone();
    let mut notes: Vec<(usize, String)> = Vec::new();
    for t in &turns {
        let best: Vec<String> = t
            .best
            .iter()
            .map(|m| format!("{} {:.1}", m.notation(), m.equity))
            .collect();
        let flag = if !t.valid { " (phony)" } else { "" };
        let bingo = if t.missed_bingo {
            " · missed bingo"
        } else {
            ""
        };
        let line = format!(
            "played {}{} equity {:.1}; best {}; lost {:.1}{}",
            t.played_text,
            flag,
            t.played_equity,
            best.join(", "),
            t.equity_lost,
            bingo
        );
        println!(
            "line {:>3} {:<12} {:<8} {}",
            t.line,
            nick(t.player),
            t.rack,
            line
        );
        notes.push((t.line, format!("tilebag analysis: {line}")));
    }
    println!();
    for p in 0..2 {
        println!(
            "{}: {} moves analysed, best found {} times, equity lost {:.1} ({:.1} a move), missed bingos {}",
            nick(p),
            totals.moves[p],
            totals.best_played[p],
            totals.equity_lost[p],
            totals.equity_lost[p] / totals.moves[p].max(1) as f32,
            totals.missed_bingos[p]
        );
    }
    if let Some(out) = args.gcg {
        let mut annotated: GcgRecord = record.clone();
        for ev in annotated.events.iter_mut() {
            if let Some((_, note)) = notes.iter().find(|(l, _)| *l == ev.line) {
                ev.notes.push(note.clone());
            }
        }
        std::fs::write(&out, write_gcg(&annotated)).with_context(|| out.display().to_string())?;
        println!("wrote {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr when it is a terminal; a line every 10% otherwise.
pub struct Progress {
    total: u64,
    done: u64,
    start: Instant,
    tty: bool,
    last_pct: u64,
    label: &'static str,
    /// Done before this run began (a resumed training): not counted in the rate.
    base: Option<u64>,
}

/// A duration as `1h02m`, `3m05s` or `42s`.
fn short_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

impl Progress {
    pub fn new(total: u64, label: &'static str) -> Progress {
        Progress {
            total: total.max(1),
            done: 0,
            start: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            last_pct: 0,
            label,
            base: None,
        }
    }
    /// The speed (per second, over this run) and the time left at that speed.
    fn rate(&self, done: u64) -> Option<(f64, f64)> {
        let secs = self.start.elapsed().as_secs_f64();
        let new = done.saturating_sub(self.base.unwrap_or(0));
        if new == 0 || secs <= 0.0 {
            return None;
        }
        let rate = new as f64 / secs;
        Some((rate, self.total.saturating_sub(done) as f64 / rate))
    }
    pub fn set(&mut self, done: u64) {
        if self.base.is_none() {
            // The first value set is where this run starts (non-zero when resuming).
            self.base = Some(done);
            self.start = Instant::now();
        }
        self.done = done;
        let pct = done * 100 / self.total;
        let secs = self.start.elapsed().as_secs_f64();
        let speed = match self.rate(done) {
            Some((rate, left)) => format!(", {rate:.1}/s, {} left", short_duration(left)),
            None => String::new(),
        };
        if self.tty {
            let width = 30;
            let fill = ((done.min(self.total)) * width / self.total) as usize;
            eprint!(
                "\r{} [{}{}] {done}/{} ({:.0} s{speed})   ",
                self.label,
                "#".repeat(fill),
                " ".repeat(width as usize - fill),
                self.total,
                secs
            );
            let _ = std::io::stderr().flush();
        } else if pct >= self.last_pct + 10 || done == self.total {
            self.last_pct = pct;
            eprintln!(
                "{} {done}/{} ({:.0} s{speed})",
                self.label, self.total, secs
            );
        }
    }
    pub fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

fn parse_level(s: &str) -> Result<Level> {
    Level::parse(s.trim())
        .with_context(|| format!("unknown bot {s:?}: the levels are beginner, static and sim"))
}

/// A bot of `--bots`: a level, and the leave file it plays with (`static:FILE`; `None`: the
/// `--leaves` file, or the built-in table).
struct BotSpec {
    label: String,
    level: Level,
    leaves: Option<PathBuf>,
}

fn parse_bot(spec: &str) -> Result<BotSpec> {
    let spec = spec.trim();
    let (level, leaves) = match spec.split_once(':') {
        Some((level, file)) if !file.is_empty() => (level, Some(PathBuf::from(file))),
        Some((_, _)) => {
            bail!("bot {spec:?}: name a leave file after the colon, e.g. static:leaves.klv2")
        }
        None => (spec, None),
    };
    Ok(BotSpec {
        label: spec.to_string(),
        level: parse_level(level)?,
        leaves,
    })
}

pub fn selfplay(args: SelfplayArgs) -> Result<ExitCode> {
    let (a, b) = args
        .bots
        .split_once(',')
        .context("--bots takes two bots, e.g. static,beginner or static,static:leaves.klv2")?;
    let bots = [parse_bot(a)?, parse_bot(b)?];
    let levels = [bots[0].level, bots[1].level];
    let ruleset = Ruleset::preset(&args.preset).map_err(|e| anyhow::anyhow!("{e}"))?;
    let tables = Engine::tables_for(&ruleset)?;
    let lex = generator_lexicon(args.lexicon.as_deref())?;
    let lexicon_label = if args.lexicon.is_none() {
        "ENABLE1".to_string()
    } else {
        lex.name().to_string()
    };
    let tables_of_bots = [
        leave_table(bots[0].leaves.as_deref().or(args.leaves.as_deref()))?,
        leave_table(bots[1].leaves.as_deref().or(args.leaves.as_deref()))?,
    ];
    let engines = [
        Engine::new(&lex, &tables, &*tables_of_bots[0], ruleset.exchange_min_bag),
        Engine::new(&lex, &tables, &*tables_of_bots[1], ruleset.exchange_min_bag),
    ];
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // A simulating bot uses every core itself: play its games one at a time.
    let sim_threads = if levels.contains(&Level::Simulating) {
        threads
    } else {
        1
    };
    let game_threads = if sim_threads > 1 { 1 } else { threads };
    let sim = SimConfig {
        budget: Duration::from_millis(args.sim_ms),
        threads: sim_threads,
        ..SimConfig::default()
    };
    // Paired bags: pair k is seed + k played twice, the first bot in seat 1 then in seat 2.
    let pairs = args.games.div_ceil(2);
    let games = 2 * pairs;
    if games != args.games {
        eprintln!(
            "note: games are played in pairs (each bag with the seats swapped): {games} games"
        );
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let progress = std::sync::Mutex::new(Progress::new(games as u64, "selfplay"));
    let start = Instant::now();
    #[derive(Default)]
    struct Tally {
        /// By game: the result as the first bot saw it.
        results: Vec<Option<GameResult>>,
        done: usize,
        moves: u64,
        failures: Vec<String>,
    }
    let tally = std::sync::Mutex::new(Tally {
        results: vec![None; games],
        ..Tally::default()
    });
    let names = [bots[0].label.as_str(), bots[1].label.as_str()];
    std::thread::scope(|scope| {
        for _ in 0..game_threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= games {
                    break;
                }
                // The first bot sits first in the pair's first game, second in its second.
                let a_seat = i % 2;
                let seat_of = |bot: usize| if bot == 0 { a_seat } else { 1 - a_seat };
                let by_seat = |seat: usize| if seat_of(0) == seat { 0 } else { 1 };
                let seat_levels = [levels[by_seat(0)], levels[by_seat(1)]];
                let seed = args.seed.wrapping_add((i / 2) as u64);
                let g = play_game_with(
                    [&engines[by_seat(0)], &engines[by_seat(1)]],
                    &ruleset,
                    seat_levels,
                    seed,
                    sim,
                );
                let s = g.game.scores();
                let player = |seat: usize| GcgPlayer {
                    nick: format!("{}_{}", seat_levels[seat].name(), seat + 1),
                    name: format!("tilebag {} (seat {})", names[by_seat(seat)], seat + 1),
                };
                let mut record = game_to_gcg(&g.game, [player(0), player(1)]);
                // The lexicon the bots played with (the ruleset's word source names the
                // preset's list, which the bots may not have had).
                record.lexicon = Some(lexicon_label.clone());
                let fault = record_fault(&record, s);
                let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                t.failures
                    .extend(fault.map(|f| format!("game {}: {f}", i + 1)));
                t.failures
                    .extend(g.notes.iter().map(|n| format!("game {}: {n}", i + 1)));
                t.results[i] = Some(GameResult {
                    scores: [s[seat_of(0)], s[seat_of(1)]],
                    bingos: [g.bingos[seat_of(0)], g.bingos[seat_of(1)]],
                });
                t.moves += g.moves as u64;
                t.done += 1;
                let done = t.done as u64;
                drop(t);
                if let Some(dir) = &args.output {
                    let path = dir.join(format!("game-{:05}.gcg", i + 1));
                    if let Err(e) = std::fs::write(&path, write_gcg(&record)) {
                        eprintln!("error: {}: {e}", path.display());
                    }
                }
                progress.lock().unwrap_or_else(|e| e.into_inner()).set(done);
            });
        }
    });
    progress.lock().unwrap_or_else(|e| e.into_inner()).finish();
    let secs = start.elapsed().as_secs_f64();
    let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    let paired: Vec<[GameResult; 2]> = t
        .results
        .chunks_exact(2)
        .filter_map(|p| Some([p[0]?, p[1]?]))
        .collect();
    let m = MatchSummary::of_pairs(&paired);
    print_match(&m, names, &format!("{}, {}", args.preset, lex.name()));
    println!(
        "{:.1} games per second, {:.0} moves per second ({:.1} s, {} thread{})",
        t.done as f64 / secs,
        t.moves as f64 / secs,
        secs,
        game_threads,
        if game_threads == 1 { "" } else { "s" }
    );
    if t.failures.is_empty() {
        println!("every game's GCG verifies with its final score");
        Ok(ExitCode::SUCCESS)
    } else {
        for f in &t.failures {
            eprintln!("FAIL {f}");
        }
        Ok(ExitCode::from(1))
    }
}

/// What is wrong with a self-play game's record, if anything: it must replay through the rules
/// to the end, at the scores the game ended with.
fn record_fault(record: &GcgRecord, scores: [i32; 2]) -> Option<String> {
    match verify_record(record) {
        Ok(rep) if rep.scores == scores && rep.completion == Completion::Complete => None,
        Ok(rep) => Some(format!(
            "the record verifies to {:?} ({:?}) but the game ended {:?}",
            rep.scores, rep.completion, scores
        )),
        Err(e) => Some(format!("line {}: {}", e.line, e.message)),
    }
}

/// A match's figures as `selfplay` prints them: the win rate of the first bot named (ties
/// half) and the mean spread over pairs, each with its 95% interval; scores and bingos.
fn print_match(m: &MatchSummary, names: [&str; 2], played: &str) {
    let pct = |x: f64| 100.0 * x;
    let none = "no interval from fewer than two pairs".to_string();
    let win_ci = match m.win_rate.ci95 {
        Some((lo, hi)) => format!("95% CI {:.1}%–{:.1}%", pct(lo), pct(hi)),
        None => none.clone(),
    };
    let spread_ci = match m.spread.ci95 {
        Some((lo, hi)) => format!("95% CI {lo:+.1} to {hi:+.1}"),
        None => none,
    };
    println!(
        "{} games ({} pairs of bags, seats swapped), {} vs {} ({played})",
        m.games, m.pairs, names[0], names[1],
    );
    println!(
        "win rate of {}: {:.1}% ({}), ties counted as half",
        names[0],
        pct(m.win_rate.mean),
        win_ci
    );
    println!(
        "mean spread of {}: {:+.1} a game ({}), over pairs",
        names[0], m.spread.mean, spread_ci
    );
    println!(
        "average score: {} {:.1}, {} {:.1}",
        names[0], m.mean_scores[0], names[1], m.mean_scores[1]
    );
    println!(
        "bingos a game: {} {:.2}, {} {:.2}",
        names[0], m.bingos[0], names[1], m.bingos[1]
    );
}

pub fn leaves(cmd: LeavesCommand) -> Result<ExitCode> {
    match cmd {
        LeavesCommand::Convert { input, output } => {
            let bytes = std::fs::read(&input).with_context(|| input.display().to_string())?;
            let from = LeaveFormat::sniff(&bytes);
            let table =
                LeaveTable::from_bytes(&bytes).with_context(|| input.display().to_string())?;
            let to = LeaveFormat::for_path(&output);
            let out = table.to_bytes(to);
            std::fs::write(&output, &out).with_context(|| output.display().to_string())?;
            let total = table.shape().len() - 1;
            println!(
                "read {} ({}): {} of {total} leaves have a value{}",
                input.display(),
                from.name(),
                table.known(),
                if table.known() < total {
                    " (the others are 0)"
                } else {
                    ""
                }
            );
            println!(
                "wrote {} ({}, {} bytes){}",
                output.display(),
                to.name(),
                out.len(),
                if to == LeaveFormat::Klv {
                    ": values rounded to 1/256 of a point"
                } else {
                    ""
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        LeavesCommand::Train {
            lexicon,
            games,
            output,
            resume,
            threads,
            full,
            generations,
            games_per_generation,
            state,
            start,
            prior_weight,
            carry,
            rollouts,
            keep_generations,
            seed,
        } => {
            let table_output = matches!(
                LeaveFormat::for_path(&output),
                LeaveFormat::Klv2 | LeaveFormat::Klv
            );
            if full || table_output {
                let start = match start.as_str() {
                    "zero" => Start::Zero,
                    "weights" => Start::Weights,
                    other => bail!("--start {other:?}: use zero or weights"),
                };
                if !(0.0..=1.0).contains(&carry) {
                    bail!("--carry {carry}: give a number from 0 to 1");
                }
                if prior_weight.is_some_and(|k| k.is_nan() || k <= 0.0) {
                    bail!("--prior-weight: give a number above 0");
                }
                let cfg = TableTrainConfig {
                    generations,
                    games_per_generation: games_per_generation.max(1),
                    threads: threads
                        .unwrap_or_else(|| {
                            std::thread::available_parallelism().map_or(1, |n| n.get())
                        })
                        .max(1),
                    prior_weight,
                    carry,
                    seed,
                    start,
                    rollouts,
                    ..TableTrainConfig::default()
                };
                return train_full_table(lexicon.as_deref(), &output, state, keep_generations, cfg);
            }
            let lex = generator_lexicon(lexicon.as_deref())?;
            let tables = Tables::english();
            let start_leaves = if resume && output.exists() {
                leaves_for(Some(&output))?
            } else {
                Leaves::defaults()
            };
            if start_leaves.games >= games {
                println!(
                    "{} already holds weights trained on {} games (asked for {games})",
                    output.display(),
                    start_leaves.games
                );
                return Ok(ExitCode::SUCCESS);
            }
            let cfg = TrainConfig {
                games,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                ..TrainConfig::default()
            };
            let mut progress = Progress::new(games, "training");
            progress.set(start_leaves.games);
            let out = output.clone();
            let trained = train(&lex, &tables, start_leaves, cfg, &mut |l: &Leaves| {
                progress.set(l.games);
                // Save as it goes, so an interrupted run resumes (--resume).
                let _ = std::fs::write(&out, l.to_text());
            });
            progress.finish();
            std::fs::write(&output, trained.to_text())
                .with_context(|| output.display().to_string())?;
            println!(
                "wrote {} (weights after {} games of self-play)",
                output.display(),
                trained.games
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The file a generation's table is kept in: `leaves.klv2` → `leaves.gen3.klv2`.
fn generation_path(output: &Path, generation: u32) -> PathBuf {
    let stem = output
        .file_stem()
        .map_or("leaves".into(), |s| s.to_string_lossy().into_owned());
    let name = match output.extension() {
        Some(ext) => format!("{stem}.gen{generation}.{}", ext.to_string_lossy()),
        None => format!("{stem}.gen{generation}"),
    };
    output.with_file_name(name)
}

/// `tilebag leaves train --full`: trains a full table in generations (see
/// `tilebag_engine::table_train`), saving the state every half minute and at each
/// generation's end, and writing each generation's table to OUTPUT.
fn train_full_table(
    lexicon: Option<&Path>,
    output: &Path,
    state_path: Option<PathBuf>,
    keep_generations: bool,
    cfg: TableTrainConfig,
) -> Result<ExitCode> {
    let lex = generator_lexicon(lexicon)?;
    let tables = Tables::english();
    let shape =
        tilebag_engine::LeaveShape::new(tables.counts, tilebag_engine::leave_table::MAX_LEAVE);
    let state_path = state_path.unwrap_or_else(|| {
        let mut p = output.as_os_str().to_owned();
        p.push(".state");
        PathBuf::from(p)
    });
    let format = match LeaveFormat::for_path(output) {
        LeaveFormat::Klv => LeaveFormat::Klv,
        LeaveFormat::Klv2 => LeaveFormat::Klv2,
        _ => LeaveFormat::Text,
    };
    let mut state = if state_path.exists() {
        let st = TrainState::load(&state_path, shape.clone())?;
        if st.seed != cfg.seed || st.start != cfg.start {
            bail!(
                "{} was made with another --seed or --start; remove it to start again",
                state_path.display()
            );
        }
        // A run resumed with other settings would mix two runs' samples in one table.
        st.check_settings(&cfg).map_err(|e| {
            anyhow::anyhow!("{}: {e}, or remove it to start again", state_path.display())
        })?;
        if st.settings.is_none() && st.total_games > 0 {
            eprintln!(
                "{} does not say what settings made it (an older state): going on with these",
                state_path.display()
            );
        }
        eprintln!(
            "resuming {}: generation {} ({} of its games played, {} games in all)",
            state_path.display(),
            st.generation,
            st.games_done,
            st.total_games
        );
        st
    } else {
        TrainState::new(shape, cfg.start, cfg.seed)
    };
    let per_gen = cfg.games_per_generation;
    let planned = |st: &TrainState| u64::from(st.generation) * per_gen + st.games_done.min(per_gen);
    if state.generation >= cfg.generations {
        println!(
            "{} already holds {} generations ({} games; asked for {})",
            state_path.display(),
            state.generation,
            state.total_games,
            cfg.generations
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut progress = Progress::new(u64::from(cfg.generations) * per_gen, "training");
    progress.set(planned(&state));
    let mut last_save = Instant::now();
    let mut failure: Option<anyhow::Error> = None;
    let run_start = Instant::now();
    let games_before = state.total_games;
    train_tables(&lex, &tables, &cfg, &mut state, &mut |st, step| {
        let saved = match step {
            Step::Batch => {
                progress.set(planned(st));
                if last_save.elapsed() < Duration::from_secs(30) {
                    return std::ops::ControlFlow::Continue(());
                }
                st.save(&state_path)
                    .with_context(|| state_path.display().to_string())
            }
            Step::Generation { ks } => {
                progress.finish();
                let t = &st.table;
                let shape = t.shape();
                let show: Vec<String> = ["?", "S", "E", "Q", "QU", "ERS", "AEINST"]
                    .iter()
                    .map(|s| {
                        let r = Rack::parse(s).unwrap_or_default();
                        let n = shape.rank(&r).map_or(0.0, |i| st.sums.count[i]);
                        format!("{s} {:.1} (n {n:.0})", t.value(&r))
                    })
                    .collect();
                eprintln!(
                    "generation {}: {} games in all; {}; prior weight by leave length {:?}",
                    st.generation,
                    st.total_games,
                    show.join(", "),
                    ks[1..]
                        .iter()
                        .map(|k| (k * 10.0).round() / 10.0)
                        .collect::<Vec<_>>()
                );
                let bytes = t.to_bytes(format);
                let mut r =
                    std::fs::write(output, &bytes).with_context(|| output.display().to_string());
                if r.is_ok() && keep_generations {
                    let p = generation_path(output, st.generation);
                    r = std::fs::write(&p, &bytes).with_context(|| p.display().to_string());
                }
                r.and_then(|()| {
                    st.save(&state_path)
                        .with_context(|| state_path.display().to_string())
                })
            }
        };
        match saved {
            Ok(()) => {
                last_save = Instant::now();
                std::ops::ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(e);
                std::ops::ControlFlow::Break(())
            }
        }
    });
    progress.finish();
    if let Some(e) = failure {
        return Err(e);
    }
    state
        .save(&state_path)
        .with_context(|| state_path.display().to_string())?;
    let secs = run_start.elapsed().as_secs_f64();
    let played = state.total_games - games_before;
    println!(
        "wrote {} ({}: generation {}, {} games of self-play in all)",
        output.display(),
        format.name(),
        state.generation,
        state.total_games
    );
    println!(
        "{played} games this run in {secs:.1} s: {:.1} games per second ({} thread{})",
        played as f64 / secs.max(1e-9),
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

/// The positions of a file of CGP lines (blank lines skipped), each with its line's index from
/// 0; a line that cannot be read is an error naming the file and the line.
fn cgp_lines<'a>(
    text: &'a str,
    path: &'a Path,
    tables: &'a Tables,
) -> impl Iterator<Item = Result<(usize, CgpPosition)>> + 'a {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(move |(i, line)| {
            CgpPosition::parse(line, tables)
                .map(|p| (i, p))
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))
        })
}

/// `bench endgame`: for each position, the endgame played out three times (the two-ply search
/// in both seats; the deeper search in seat 0; the deeper search in seat 1), on every core
/// (positions side by side, each deeper search on `--search-threads` threads).
pub fn bench_endgame(args: BenchEndgameArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.positions)
        .with_context(|| args.positions.display().to_string())?;
    let tables = Tables::english();
    let lex = generator_lexicon(args.lexicon.as_deref())?;
    let engine = Engine::new(&lex, &tables, LeaveTable::enable(), 7);
    let mut positions = Vec::new();
    for read in cgp_lines(&text, &args.positions, &tables) {
        if args.limit.is_some_and(|n| positions.len() >= n) {
            break;
        }
        let (i, p) = read?;
        let mut s = Situation::from_cgp(&p, &tables);
        if s.rack.is_empty() || s.unseen.is_empty() {
            continue;
        }
        if s.bag_len > 0 {
            let mut tiles = s.unseen.codes();
            tilebag_core::bag::Rng::new(i as u64).shuffle(&mut tiles);
            s.unseen = Rack::from_codes(&tiles[..tables.rack_size.min(tiles.len())]);
            s.bag_len = 0;
        }
        positions.push(s);
    }
    let think = Some(Duration::from_millis(args.ms));
    let t0 = Instant::now();
    let search_threads = args.search_threads.max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (cores / search_threads).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut progress = Progress::new(positions.len() as u64, "endgames");
    // Per position: seat 0's gain with the deeper search, seat 1's, whether seat 0's first move
    // differs from the two-ply search's, and the plies of that first search.
    let results: Vec<(usize, i32, i32, bool, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(s) = positions.get(k) else {
                            break;
                        };
                        let (base, two, _) = tilebag_engine::endgame::play_endgame(
                            &engine,
                            s,
                            [None, None],
                            search_threads,
                        );
                        let (deep0, m, depth) = tilebag_engine::endgame::play_endgame(
                            &engine,
                            s,
                            [think, None],
                            search_threads,
                        );
                        let (deep1, _, _) = tilebag_engine::endgame::play_endgame(
                            &engine,
                            s,
                            [None, think],
                            search_threads,
                        );
                        out.push((k, deep0 - base, base - deep1, !m.same_as(&two), depth));
                    }
                    out
                })
            })
            .collect();
        let mut all = Vec::new();
        for w in workers {
            all.extend(w.join().unwrap_or_default());
        }
        all
    });
    progress.set(results.len() as u64);
    progress.finish();
    let gains: Vec<f64> = results
        .iter()
        .flat_map(|r| [f64::from(r.1), f64::from(r.2)])
        .collect();
    let n = gains.len().max(1) as f64;
    let mean = gains.iter().sum::<f64>() / n;
    let var = gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let better = gains.iter().filter(|&&g| g > 0.0).count();
    let worse = gains.iter().filter(|&&g| g < 0.0).count();
    let differs = results.iter().filter(|r| r.3).count();
    let mut depths = [0usize; tilebag_engine::endgame::MAX_DEPTH + 1];
    for r in &results {
        depths[r.4.min(tilebag_engine::endgame::MAX_DEPTH)] += 1;
    }
    println!("positions {}", results.len());
    println!(
        "deeper search ({} ms per move) v two-ply, per seat: {mean:+.2} points per endgame (95% CI {:+.2} to {:+.2}); better in {better}, worse in {worse}, equal in {} of {} endgames",
        args.ms,
        mean - half,
        mean + half,
        gains.len() - better - worse,
        gains.len()
    );
    println!(
        "first move differs from the two-ply choice in {differs} of {} positions",
        results.len()
    );
    let shown: Vec<String> = depths
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(d, c)| format!("{d} plies: {c}"))
        .collect();
    println!("plies of the first search: {}", shown.join(", "));
    println!(
        "{:.1} s, {threads} position{} at a time, each deeper search on {search_threads} thread{}",
        t0.elapsed().as_secs_f64(),
        if threads == 1 { "" } else { "s" },
        if search_threads == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

pub fn bench_movegen(args: BenchMovegenArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.positions)
        .with_context(|| args.positions.display().to_string())?;
    let tables = Tables::english();
    let positions = cgp_lines(&text, &args.positions, &tables)
        .map(|read| read.map(|(_, p)| p))
        .collect::<Result<Vec<_>>>()?;
    let t0 = Instant::now();
    let lex = generator_lexicon(args.lexicon.as_deref())?;
    let graphs = Graphs::of(&lex);
    let best_only = args.top == Some(1);
    if best_only {
        // The anagram tables are made on first use: before the timing, like the node table.
        lex.anagrams();
    }
    let load = t0.elapsed();
    let mut fastest = Duration::MAX;
    let mut fastest_cpu = u64::MAX;
    let mut placements = 0u64;
    let mut best_total = 0i64;
    for _ in 0..args.repeat.max(1) {
        placements = 0;
        best_total = 0;
        let cpu0 = tilebag_engine::movegen::thread_cpu_ns();
        let t = Instant::now();
        for p in &positions {
            let prep = Prepared::new(&p.grid, &graphs, &tables);
            if best_only {
                if let Some(m) =
                    best_by_score(&prep, &p.rack, &graphs, &tables, GenOptions::default())
                {
                    placements += 1;
                    best_total += i64::from(m.score);
                }
                continue;
            }
            generate(
                &prep,
                &p.rack,
                &graphs,
                &tables,
                GenOptions::default(),
                &mut |_| placements += 1,
            );
        }
        fastest = fastest.min(t.elapsed());
        fastest_cpu =
            fastest_cpu.min(tilebag_engine::movegen::thread_cpu_ns().saturating_sub(cpu0));
    }
    let secs = fastest.as_secs_f64();
    let cpu_secs = fastest_cpu as f64 / 1e9;
    let per = |x: f64| x * 1e6 / positions.len().max(1) as f64;
    println!("positions {}", positions.len());
    if best_only {
        println!("placements {placements} (the best by score of each position that has one)");
        println!("best scores total {best_total}");
        println!(
            "{:.1} µs per position wall, {:.1} µs CPU (one thread, cross-checks included, fastest of {} passes)",
            per(secs),
            per(cpu_secs),
            args.repeat.max(1)
        );
    } else {
        println!("placements {placements}");
        println!(
            "{:.2} million placements per second wall ({:.2} by this thread's CPU time), {:.1} µs per position wall ({:.1} CPU) (one thread, cross-checks included, fastest of {} passes)",
            placements as f64 / secs / 1e6,
            placements as f64 / cpu_secs.max(1e-9) / 1e6,
            per(secs),
            per(cpu_secs),
            args.repeat.max(1)
        );
    }
    println!(
        "lexicon {} ({} words) ready in {:.0} ms; in memory: DAWG {} KiB, GADDAG {} KiB ({}), generator's node table {} KiB",
        lex.name(),
        lex.word_count(),
        load.as_secs_f64() * 1e3,
        lex.dawg_edges().len() * 4 / 1024,
        lex.gaddag().memory_bytes() / 1024,
        if lex.gaddag_from_file() {
            "from the file"
        } else {
            "built in memory"
        },
        lex.automaton().memory_bytes() / 1024,
    );
    if best_only {
        println!(
            "anagram tables (the bingo filter, the letters a blank may be, the words by their letters) {} KiB",
            lex.anagrams().memory_bytes() / 1024
        );
    }
    Ok(ExitCode::SUCCESS)
}
