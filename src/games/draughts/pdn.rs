//! PDN, the format draughts programs exchange games in: text in, text out.
//!
//! Writing gives the Seven Tag Roster (Event, Site, Date, Round, Black,
//! White, Result) and GameType "21" (English draughts), a FEN tag when the
//! game did not start from the usual position, a `Captures "optional"` tag
//! under that house rule (no GameType number names English draughts with
//! optional captures), and numbered moves in numeric notation.
//!
//! Reading takes any number of games, tags, `{comments}`, `(variations)`,
//! `;` line comments, move numbers (`12.`, `12...`), `!`/`?`/`*` marks and `$n`
//! codes, captures written in full (`11x18x25`) or short (`11x25`, resolved to
//! the one legal capture that fits) or with a dash as old books write them,
//! and the results `1-0`, `0-1`, `1/2-1/2` and `*` (read before any move: a
//! result looks like one). A result token ends a game, and tags after
//! movetext begin one; text after a result that is neither tags nor move 1
//! is a damaged game of its own, so no game takes another's number. A byte
//! order mark (U+FEFF, as each of several files joined end to end begins)
//! is blank. Errors name the game, the move and the token.
//!
//! Results follow the draughts programs' convention: the first score is the
//! first player's, so `1-0` is a win for Black and `0-1` a win for White.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use super::fen;
use super::moves::Move;
use super::notation;
use super::position::{Position, Side};
use super::rules::{Captures, Setup};
use crate::games::Outcome;

/// How a game ended, as PDN writes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// `1-0`.
    BlackWins,
    /// `0-1`.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl GameResult {
    /// The PDN token.
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result token; the two-point forms `2-0`, `0-2`, `1-1` too,
    /// and any of them with a dash [`notation::is_dash`] reads as a hyphen.
    pub fn from_token(token: &str) -> Option<GameResult> {
        Some(match &*notation::plain_dashes(token) {
            "1-0" | "2-0" => GameResult::BlackWins,
            "0-1" | "0-2" => GameResult::WhiteWins,
            "1/2-1/2" | "1-1" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unfinished,
            _ => return None,
        })
    }

    /// The result of a game's outcome (`None`: not over).
    pub fn from_outcome(outcome: Option<Outcome<Side>>) -> GameResult {
        match outcome {
            Some(Outcome::Win {
                winner: Side::Black,
                ..
            }) => GameResult::BlackWins,
            Some(Outcome::Win {
                winner: Side::White,
                ..
            }) => GameResult::WhiteWins,
            // A server's game cut off with no winner: nobody drew it, and
            // PDN's `*` says it has no result.
            Some(Outcome::Draw { how: "abandoned" }) => GameResult::Unfinished,
            Some(Outcome::Draw { .. }) => GameResult::Draw,
            None => GameResult::Unfinished,
        }
    }

    /// The winner, if one side won.
    pub const fn winner(self) -> Option<Side> {
        match self {
            GameResult::BlackWins => Some(Side::Black),
            GameResult::WhiteWins => Some(Side::White),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// One game: its tags, rules, start, moves and result.
#[derive(Clone, PartialEq, Debug)]
pub struct PdnGame {
    /// Every tag as read, in order. When writing, the tags the writer sets
    /// itself (Result, GameType, SetUp, FEN, Captures) are taken from the
    /// other fields instead; Event, Date, Black and White come from here.
    pub tags: Vec<(String, String)>,
    /// The rules the moves were played under.
    pub rules: Setup,
    /// Where the game started.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// How it ended.
    pub result: GameResult,
}

/// Tags the writer makes from the game's fields, never from `tags`.
const DERIVED: [&str; 5] = ["Result", "GameType", "SetUp", "FEN", "Captures"];
/// Tags always written, with these stand-ins when unknown: with Result,
/// the Seven Tag Roster (Black first, as draughts programs write it).
const REQUIRED: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("Black", "?"),
    ("White", "?"),
];

impl PdnGame {
    /// An empty game from a start position.
    pub fn new(rules: Setup, start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            rules,
            start,
            moves: Vec::new(),
            result: GameResult::Unfinished,
        }
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// A tag's value where it says something: `None` for a tag that is
    /// missing or empty (`[Round ""]`), which the roster writes as unknown.
    pub fn known_tag(&self, name: &str) -> Option<&str> {
        self.tag(name).filter(|v| !v.trim().is_empty())
    }

    /// Sets a tag, replacing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = vec![self.start];
        for m in &self.moves {
            let next = out[out.len() - 1].play(m);
            out.push(next);
        }
        out
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        self.moves.iter().fold(self.start, |p, m| p.play(m))
    }
}

/// The most tags a game may carry on into play (see [`PdnGame::check_carried`]).
pub const MAX_TAGS: usize = 50;
/// The longest tag name a game may carry on, in characters.
pub const MAX_TAG_NAME: usize = 40;
/// The longest tag value a game may carry on, in characters.
pub const MAX_TAG_VALUE: usize = 500;

/// Why a game carries too much to go on from.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Oversized {
    /// More than [`MAX_TAGS`] tags: how many.
    #[error("it has {0} tags; a game to load may have at most {MAX_TAGS}")]
    Tags(usize),
    /// A tag name longer than [`MAX_TAG_NAME`].
    #[error(
        "the name of tag {start}… is {len} characters long; a tag's name may be at most {MAX_TAG_NAME}"
    )]
    Name {
        /// Its first 20 characters.
        start: String,
        /// Its length, in characters.
        len: usize,
    },
    /// A tag value longer than [`MAX_TAG_VALUE`].
    #[error(
        "the value of tag {name} is {len} characters long; a tag's value may be at most {MAX_TAG_VALUE}"
    )]
    Value {
        /// The tag's name.
        name: String,
        /// The value's length, in characters.
        len: usize,
    },
}

impl PdnGame {
    /// Checks that the game's tags are few and short enough to go on from.
    /// A game played on keeps them in its log record, a line of at most
    /// 1 MiB: at these limits they take under 170 KB even with every
    /// character escaped (`\u0001`, six bytes). The moves need no bound of
    /// their own once a game that went on past its end is refused: the rules
    /// end any game within about 13,500 plies (at most 144 steps of men and
    /// 23 captures, with fewer than 80 quiet plies between), about 110 KB.
    pub fn check_carried(&self) -> Result<(), Oversized> {
        if self.tags.len() > MAX_TAGS {
            return Err(Oversized::Tags(self.tags.len()));
        }
        for (name, value) in &self.tags {
            let len = name.chars().count();
            if len > MAX_TAG_NAME {
                let start = name.chars().take(20).collect();
                return Err(Oversized::Name { start, len });
            }
            let len = value.chars().count();
            if len > MAX_TAG_VALUE {
                let name = name.clone();
                return Err(Oversized::Value { name, len });
            }
        }
        Ok(())
    }
}

/// A tag's value in double quotes, on one line: a line end inside it is
/// written as tallyho writes every control character (`\u{a}`), which
/// [`read_tag`] reads back.
fn quote(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\u{a}"),
            '\r' => out.push_str("\\u{d}"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One game as PDN text, ending with a newline.
pub fn write(game: &PdnGame) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} {}]\n", quote(value)));
    };
    for (name, unknown) in REQUIRED {
        tag(name, game.known_tag(name).unwrap_or(unknown));
    }
    tag("Result", game.result.token());
    tag("GameType", "21");
    if game.rules.captures == Captures::Optional {
        tag("Captures", game.rules.captures.name());
    }
    if game.start != Position::START {
        tag("SetUp", "1");
        tag("FEN", &fen::write(&game.start));
    }
    for (name, value) in &game.tags {
        if !DERIVED.contains(&name.as_str()) && !REQUIRED.iter().any(|(r, _)| r == name) {
            tag(name, value);
        }
    }
    out.push('\n');
    let mut words = Vec::new();
    let mut side = game.start.to_move();
    let mut number = 1;
    for (i, m) in game.moves.iter().enumerate() {
        // A move number and its move stay on one line.
        words.push(match side {
            Side::Black => format!("{number}. {m}"),
            Side::White if i == 0 => format!("{number}... {m}"),
            Side::White => m.to_string(),
        });
        if side == Side::White {
            number += 1;
        }
        side = side.other();
    }
    words.push(game.result.token().to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Tags as PDN writes them, `[Event "Club night"]`, one a line.
pub fn write_tags(tags: &[(String, String)]) -> String {
    tags.iter()
        .map(|(name, value)| format!("[{name} {}]", quote(value)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tags of text [`write_tags`] wrote; any text that is not tags gives
/// what could be read before it.
pub fn read_tags(text: &str) -> Vec<(String, String)> {
    read_tags_whole(text).0
}

/// [`read_tags`], and whether the text was read to its end: `false` where
/// something that is no tag stopped the reading (a damaged field).
pub fn read_tags_whole(text: &str) -> (Vec<(String, String)>, bool) {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        at_line_start: true,
    };
    let reading = Reading::new(1, Setup::STANDARD);
    let mut tags = Vec::new();
    loop {
        cur.skip_spaces();
        match cur.next() {
            Some('[') => {}
            None => return (tags, true),
            Some(_) => return (tags, false),
        }
        match read_tag(&mut cur, &reading) {
            Ok(tag) => tags.push(tag),
            Err(_) => return (tags, false),
        }
    }
}

/// Several games, a blank line between them.
pub fn write_all(games: &[PdnGame]) -> String {
    games.iter().map(write).collect::<Vec<_>>().join("\n")
}

/// Why some PDN text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PdnError {
    /// Which game, from 1.
    pub game: usize,
    /// The move number and side, when the trouble is in the moves.
    pub at: Option<(usize, Side)>,
    /// The text at fault, if any.
    pub token: Option<String>,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some((n, side)) = self.at {
            write!(f, ", move {n} ({side})")?;
        }
        if let Some(t) = &self.token {
            write!(f, ", \"{t}\"")?;
        }
        write!(f, ": {}", self.why)
    }
}

impl std::error::Error for PdnError {}

/// A game being read.
struct Reading {
    number: usize,
    tags: Vec<(String, String)>,
    /// The tags' names, so that a second of one is found at once however
    /// many a file holds.
    names: HashSet<String>,
    /// Set once the tags are settled (at the first move or the end).
    setup: Option<(Setup, Position)>,
    position: Position,
    moves: Vec<Move>,
    default: Setup,
}

impl Reading {
    fn new(number: usize, default: Setup) -> Reading {
        Reading {
            number,
            tags: Vec::new(),
            names: HashSet::new(),
            setup: None,
            position: Position::START,
            moves: Vec::new(),
            default,
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty()
    }

    fn error(&self, token: Option<&str>, why: impl Into<String>) -> PdnError {
        PdnError {
            game: self.number,
            at: None,
            token: token.map(str::to_string),
            why: why.into(),
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Reads the tags that set the game up, once.
    fn settle(&mut self) -> Result<(Setup, Position), PdnError> {
        if let Some(s) = self.setup {
            return Ok(s);
        }
        if let Some(t) = self.tag("GameType") {
            let kind = t.split(',').next().unwrap_or("").trim();
            if kind != "21" {
                return Err(self.error(
                    Some(t),
                    format!("GameType {kind} is not English draughts: tallyho reads GameType 21"),
                ));
            }
        }
        let mut rules = self.default;
        if let Some(c) = self.tag("Captures") {
            rules.captures = c
                .parse()
                .map_err(|e| self.error(Some(c), format!("the Captures tag: {e}")))?;
        }
        let start = match self.tag("FEN") {
            Some(text) => fen::parse(text).map_err(|e| {
                let token = (!e.quotes_whole()).then_some(text);
                self.error(token, format!("the FEN tag: {e}"))
            })?,
            None => Position::START,
        };
        self.setup = Some((rules, start));
        self.position = start;
        Ok((rules, start))
    }

    fn play(&mut self, token: &str) -> Result<(), PdnError> {
        let (rules, start) = self.settle()?;
        let ply = self.moves.len();
        let side = self.position.to_move();
        let first_white = start.to_move() == Side::White;
        let number = (ply + usize::from(first_white)) / 2 + 1;
        // A side with no move has lost: a move after that is past the end.
        if rules.moves(&self.position).is_empty() {
            let won = match side.other() {
                Side::Black => GameResult::BlackWins,
                Side::White => GameResult::WhiteWins,
            };
            return Err(PdnError {
                game: self.number,
                at: Some((number, side)),
                token: Some(token.to_string()),
                why: format!(
                    "the game was over before this move: {} is to move and has no move, \
                     and has lost ({}); its moves go on past its end",
                    side.title(),
                    won.token()
                ),
            });
        }
        let mv = notation::parse_move(&rules, &self.position, token).map_err(|e| {
            // `M11-15`, as the C project's players wrote moves.
            let why = match notation::without_letter(&rules, &self.position, token) {
                Some(Ok(m)) => format!("moves are written without a letter in front: {m}"),
                Some(Err(e)) => format!("moves are written without a letter in front, and {e}"),
                None => notation::why_not(&rules, &self.position, token, e),
            };
            PdnError {
                game: self.number,
                at: Some((number, side)),
                token: Some(token.to_string()),
                why,
            }
        })?;
        self.position = self.position.play(&mv);
        self.moves.push(mv);
        Ok(())
    }

    /// The game read, given the result token that ended its moves, if one
    /// did, and that token as written (`2-0` is quoted as `2-0`).
    fn finish(mut self, ended: Option<(GameResult, &str)>) -> Result<PdnGame, PdnError> {
        let (rules, start) = self.settle()?;
        let tag_text = self.tag("Result").map(|t| t.trim().to_string());
        let tagged = match &tag_text {
            Some(t) => Some(GameResult::from_token(t).ok_or_else(|| {
                self.error(
                    Some(t),
                    "the Result tag should be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1)",
                )
            })?),
            None => None,
        };
        let (ended, ended_text) = ended.unzip();
        let result = match (tagged, ended) {
            (Some(t), Some(e)) if t != e && e != GameResult::Unfinished => {
                let written = ended_text.unwrap_or(e.token());
                let said = tag_text.as_deref().unwrap_or(t.token());
                return Err(self.error(
                    Some(written),
                    format!("the moves end with {written} but the Result tag says {said}"),
                ));
            }
            // A result recorded in the tag stands where the moves end with
            // `*`: the game is over all the same.
            (Some(t), Some(GameResult::Unfinished) | None) => t,
            (_, Some(e)) => e,
            (None, None) => GameResult::Unfinished,
        };
        Ok(PdnGame {
            tags: self.tags,
            rules,
            start,
            moves: self.moves,
            result,
        })
    }
}

/// Whether `c` is blank between tokens: whitespace, or the byte order mark
/// (U+FEFF) that each of several files joined end to end begins with.
fn is_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// A cursor over the text, by characters.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    at_line_start: bool,
}

impl Cursor<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next();
        // A lone CR ends a line too, as old Macintosh files end them; a
        // byte order mark leaves the line's start where it was.
        self.at_line_start = match c {
            Some('\n' | '\r') => true,
            Some('\u{feff}') => self.at_line_start,
            _ => false,
        };
        c
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    /// After a backslash, a character written `u{1b}`, as tallyho writes
    /// control characters in the tags it prints (a backslash itself is
    /// written twice, so `\\u{1b}` stays text): taken, and its character
    /// given; anything else is left for the caller.
    fn escaped_char(&mut self) -> Option<char> {
        let mut ahead = self.chars.clone();
        if (ahead.next(), ahead.next()) != (Some('u'), Some('{')) {
            return None;
        }
        let mut hex = String::new();
        while let Some(c) = ahead.next_if(char::is_ascii_hexdigit) {
            hex.push(c);
            if hex.len() > 6 {
                return None;
            }
        }
        if hex.is_empty() || ahead.next() != Some('}') {
            return None;
        }
        let c = u32::from_str_radix(&hex, 16)
            .ok()
            .and_then(char::from_u32)?;
        // `u`, `{`, the digits and `}`.
        for _ in 0..hex.len() + 3 {
            self.next();
        }
        Some(c)
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.next();
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if matches!(c, '\n' | '\r') {
                break;
            }
        }
    }
}

fn read_tag(cur: &mut Cursor, game: &Reading) -> Result<(String, String), PdnError> {
    cur.skip_spaces();
    let mut name = String::new();
    while let Some(c) = cur.peek() {
        if c.is_alphanumeric() || c == '_' {
            name.push(c);
            cur.next();
        } else {
            break;
        }
    }
    if name.is_empty() {
        return Err(game.error(
            None,
            "a tag [ has no name: write tags like [Event \"Club night\"]",
        ));
    }
    // A character no name holds, straight after the name (`[Ev\x1b[31m`).
    if let Some(c) = cur.peek().filter(|&c| c != '"' && !c.is_whitespace()) {
        return Err(game.error(
            Some(&name),
            format!("a tag's name is letters, digits and _: tag {name} is followed by {c}"),
        ));
    }
    cur.skip_spaces();
    if cur.next() != Some('"') {
        return Err(game.error(
            Some(&name),
            format!("the value of tag {name} should be in double quotes"),
        ));
    }
    let mut value = String::new();
    loop {
        match cur.next() {
            None => {
                return Err(game.error(
                    Some(&name),
                    format!("the value of tag {name} is never closed"),
                ));
            }
            Some('\\') => match cur.escaped_char() {
                Some(c) => value.push(c),
                None => {
                    if let Some(c) = cur.next() {
                        value.push(c);
                    }
                }
            },
            Some('"') => break,
            // A value is one line: the tag's line ended before its quote.
            Some('\n' | '\r') => {
                return Err(game.error(
                    Some(&name),
                    format!(
                        "the value of tag {name} is not closed on its line: end it with \" before the line ends"
                    ),
                ));
            }
            Some(c) => value.push(c),
        }
    }
    cur.skip_spaces();
    if cur.peek() == Some(']') {
        cur.next();
        return Ok((name, value));
    }
    // Text between the value and a `]` later on the line (`[Event "x"
    // junk]`) is named; with no `]` there, the tag is never closed.
    let line: String = cur
        .chars
        .clone()
        .take_while(|c| !matches!(c, '\n' | '\r'))
        .take(MAX_TAG_VALUE)
        .collect();
    Err(match line.split_once(']') {
        Some((extra, _)) => {
            let extra = extra.trim_end();
            let mut shown: String = extra.chars().take(30).collect();
            if shown.len() < extra.len() {
                shown.push('…');
            }
            game.error(
                Some(&name),
                format!(
                    "tag {name} has {shown} after its value: a tag holds one value in double quotes, like [Event \"Club night\"]"
                ),
            )
        }
        None => game.error(Some(&name), format!("tag {name} is never closed with ]")),
    })
}

/// A Unicode encoding other than UTF-8 that a file looks saved in: PDN is
/// read as UTF-8 (and so ASCII), and text in these would read as noise.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// Two bytes a character, as Windows editors save "Unicode".
    Utf16 {
        /// The high byte first.
        big_endian: bool,
    },
    /// Four bytes a character.
    Utf32 {
        /// The high byte first.
        big_endian: bool,
    },
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, big_endian) = match *self {
            Encoding::Utf16 { big_endian } => ("UTF-16", big_endian),
            Encoding::Utf32 { big_endian } => ("UTF-32", big_endian),
        };
        let order = if big_endian { "big" } else { "little" };
        write!(f, "{name} ({order}-endian)")
    }
}

/// The text of a PDN file's bytes: UTF-8 as it is, and each byte that is
/// not UTF-8 read as Windows-1252, the Latin-1 of the Windows programs that
/// wrote older PDN files, so that a name saved that way (`M\xfcller`) keeps
/// its letters instead of losing them, and each game can still be read.
/// Also the line (from 1) of the first byte so read, if any.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, Option<usize>) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(text), None);
    }
    let mut text = String::with_capacity(bytes.len());
    let mut first = None;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() && first.is_none() {
            // Lines end at LF, CRLF or a lone CR, as the reader has them.
            let ends = text.matches(['\n', '\r']).count() - text.matches("\r\n").count();
            first = Some(ends + 1);
        }
        text.extend(chunk.invalid().iter().map(|&b| windows_1252(b)));
    }
    (Cow::Owned(text), first)
}

/// A byte of Windows-1252 as a character: Latin-1, but for the printable
/// characters it puts in 0x80-0x9F (the five it leaves undefined stay the
/// control characters Latin-1 has there, shown escaped like any other).
fn windows_1252(byte: u8) -> char {
    const HIGH: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039,
        0x152, 0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178,
    ];
    match byte {
        0x80..=0x9F => {
            char::from_u32(u32::from(HIGH[usize::from(byte - 0x80)])).unwrap_or('\u{fffd}')
        }
        _ => char::from(byte),
    }
}

/// How many bytes from a file's start [`wrong_encoding`] looks at.
pub const ENCODING_SAMPLE: usize = 4096;

/// The encoding a file's first bytes look saved in, where it is UTF-16 or
/// UTF-32 rather than UTF-8: by its byte order mark, or without one by the
/// zero bytes beside each character of mostly ASCII text, as PDN is (UTF-8
/// text holds no zero byte). Looks at [`ENCODING_SAMPLE`] bytes at most.
pub fn wrong_encoding(bytes: &[u8]) -> Option<Encoding> {
    let sample = &bytes[..bytes.len().min(ENCODING_SAMPLE)];
    // UTF-32's little-endian mark begins with UTF-16's: it is looked for first.
    match sample {
        [0xFF, 0xFE, 0, 0, ..] => return Some(Encoding::Utf32 { big_endian: false }),
        [0, 0, 0xFE, 0xFF, ..] => return Some(Encoding::Utf32 { big_endian: true }),
        [0xFF, 0xFE, ..] => return Some(Encoding::Utf16 { big_endian: false }),
        [0xFE, 0xFF, ..] => return Some(Encoding::Utf16 { big_endian: true }),
        _ => {}
    }
    // The zero bytes at `offset` of each unit of `size` bytes.
    let zeros = |size: usize, offset: usize| {
        sample
            .chunks_exact(size)
            .filter(|unit| unit[offset] == 0)
            .count()
    };
    // Most units hold an ASCII character (zero high bytes), and almost none
    // a zero low byte.
    let looks = |size: usize, low: usize, high: &[usize]| {
        let units = sample.len() / size;
        units > 0
            && high.iter().all(|&at| 2 * zeros(size, at) >= units)
            && 10 * zeros(size, low) <= units
    };
    if looks(4, 0, &[1, 2, 3]) {
        Some(Encoding::Utf32 { big_endian: false })
    } else if looks(4, 3, &[0, 1, 2]) {
        Some(Encoding::Utf32 { big_endian: true })
    } else if looks(2, 0, &[1]) {
        Some(Encoding::Utf16 { big_endian: false })
    } else if looks(2, 1, &[0]) {
        Some(Encoding::Utf16 { big_endian: true })
    } else {
        None
    }
}

/// Reads every game in PDN text. Games without a Captures tag are read under
/// `default`'s capture rule. The first damaged game fails the whole read; see
/// [`read_each`] to read each game on its own.
pub fn read(text: &str, default: Setup) -> Result<Vec<PdnGame>, PdnError> {
    read_each(text, default).into_iter().collect()
}

/// Reads each game in PDN text on its own: a damaged game is an error in its
/// place, and the games after it are read as if it were whole.
pub fn read_each(text: &str, default: Setup) -> Vec<Result<PdnGame, PdnError>> {
    let mut reader = Reader {
        cur: Cursor {
            chars: text.chars().peekable(),
            at_line_start: true,
        },
        default,
        game: Reading::new(1, default),
        games: Vec::new(),
        ended: false,
        number: None,
        broken: false,
        in_moves: false,
        stray: false,
    };
    while let Some(step) = reader.step() {
        if let Err(e) = step {
            reader.fail(e);
        }
    }
    if !reader.broken && !reader.game.is_empty() {
        let game = std::mem::replace(&mut reader.game, Reading::new(0, default));
        reader.games.push(game.finish(None));
    }
    reader.games
}

/// The state of [`read_each`].
struct Reader<'a> {
    cur: Cursor<'a>,
    default: Setup,
    /// The game being read.
    game: Reading,
    /// The games read so far, each whole or why not.
    games: Vec<Result<PdnGame, PdnError>>,
    /// Whether a result has just ended a game: a game with no tags after it
    /// must start at move 1, or it is damaged (a stray line between games).
    ended: bool,
    /// The move number last written.
    number: Option<usize>,
    /// Whether the game being read is damaged: the rest of it is skipped.
    broken: bool,
    /// Whether the game being read has reached its movetext (a move, or
    /// trouble outside its tags): then tags begin the next game.
    in_moves: bool,
    /// Whether the damaged game being read is stray text after a result:
    /// then move 1 begins the next game, as tags do.
    stray: bool,
}

impl Reader<'_> {
    /// Ends the game being read, with `done` unless it was damaged (its
    /// error is already kept), and starts the next.
    fn close(&mut self, done: Option<Result<PdnGame, PdnError>>) {
        let number = self.game.number + 1;
        self.game = Reading::new(number, self.default);
        if let (false, Some(done)) = (self.broken, done) {
            self.games.push(done);
        }
        self.broken = false;
        self.in_moves = false;
        self.stray = false;
    }

    /// Notes why the game being read is damaged; the rest of it is skipped.
    /// The error is that game's alone: the games before and after it keep
    /// their numbers.
    fn fail(&mut self, e: PdnError) {
        if !self.broken {
            self.games.push(Err(e));
            self.broken = true;
        }
    }

    /// Reads the next token; `None` at the end of the text.
    fn step(&mut self) -> Option<Result<(), PdnError>> {
        let line_start = self.cur.at_line_start;
        self.cur.skip_spaces();
        let line_start = line_start || self.cur.at_line_start;
        let c = self.cur.peek()?;
        if c == '[' {
            return Some(self.tag());
        }
        let step = match c {
            '%' if line_start => {
                self.cur.skip_line();
                Ok(())
            }
            ';' => {
                self.cur.skip_line();
                Ok(())
            }
            '{' => self.comment(),
            '(' => self.variation(),
            ']' | '}' | ')' => {
                self.cur.next();
                let why = format!("a stray {c}");
                Err(self.game.error(Some(&c.to_string()), why))
            }
            _ => self.word(),
        };
        // Trouble outside the tags is in the movetext: the next tags begin
        // the next game, not more of this one.
        self.in_moves |= step.is_err();
        Some(step)
    }

    fn tag(&mut self) -> Result<(), PdnError> {
        self.cur.next();
        // Tags after movetext begin a new game (one without a result token,
        // or a damaged one).
        if self.in_moves {
            let done = std::mem::replace(&mut self.game, Reading::new(0, self.default));
            let number = done.number;
            let finished = (!self.broken).then(|| done.finish(None));
            self.game = Reading::new(number, self.default);
            self.close(finished);
        }
        let tag = read_tag(&mut self.cur, &self.game)?;
        let again = self.game.names.contains(&tag.0);
        if tag.0 == "FEN" && again {
            return Err(self.game.error(
                Some(&tag.1),
                "a second FEN tag: a game has one start position",
            ));
        }
        // Any other tag: which of two would count is no guess to make (and
        // the tags that set the game up, or say how it ended, would change
        // the game).
        if again {
            let name = &tag.0;
            return Err(self
                .game
                .error(Some(&tag.1), format!("a second {name} tag: a game has one")));
        }
        self.game.names.insert(tag.0.clone());
        self.game.tags.push(tag);
        Ok(())
    }

    fn comment(&mut self) -> Result<(), PdnError> {
        self.cur.next();
        loop {
            match self.cur.next() {
                None => return Err(self.game.error(None, "a comment { is never closed with }")),
                Some('}') => return Ok(()),
                Some(_) => {}
            }
        }
    }

    fn variation(&mut self) -> Result<(), PdnError> {
        self.cur.next();
        let mut depth = 1;
        while depth > 0 {
            match self.cur.next() {
                None => {
                    return Err(self
                        .game
                        .error(None, "a variation ( is never closed with )"));
                }
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => while !matches!(self.cur.next(), Some('}') | None) {},
                Some(_) => {}
            }
        }
        Ok(())
    }

    fn word(&mut self) -> Result<(), PdnError> {
        let mut word = String::new();
        while let Some(c) = self.cur.peek() {
            if is_blank(c) || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';') {
                break;
            }
            word.push(c);
            self.cur.next();
        }
        if let Some(result) = GameResult::from_token(&word) {
            // A result straight after a result ends no game: it is a damaged
            // one of its own, as other text there is.
            if self.ended && !self.broken && self.game.is_empty() {
                let why = format!(
                    "after the result of game {}, another result: a game begins with its tags or with move 1",
                    self.game.number - 1
                );
                // A game of its own, ended here: what follows is the next.
                let e = self.game.error(Some(&word), why);
                self.fail(e);
                self.close(None);
                return Ok(());
            }
            let done = std::mem::replace(&mut self.game, Reading::new(0, self.default));
            let number = done.number;
            let finished = (!self.broken).then(|| done.finish(Some((result, &word))));
            self.game = Reading::new(number, self.default);
            self.close(finished);
            self.ended = true;
            return Ok(());
        }
        if let Some(n) = move_number(&word) {
            self.number = Some(n);
        }
        let Some(mv) = move_part(&word) else {
            return Ok(());
        };
        self.in_moves = true;
        // Move 1 after stray text ends that damaged game: it begins the next.
        if self.broken && self.stray && self.number == Some(1) {
            self.close(None);
            self.in_moves = true;
        }
        if self.broken {
            return Ok(());
        }
        // Text after a result that is neither tags nor move 1 is a damaged
        // game of its own, not more of the game before: each keeps its number.
        if self.ended && self.game.tags.is_empty() && self.number != Some(1) {
            let why = format!(
                "after the result of game {}, a game begins with its tags or with move 1",
                self.game.number - 1
            );
            self.stray = true;
            return Err(self.game.error(Some(&word), why));
        }
        self.ended = false;
        self.number = None;
        self.game.play(mv)
    }
}

/// The move number a movetext word begins with (`2.`, `2...`, `2…`, `2.8-11`).
fn move_number(word: &str) -> Option<usize> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    (digits > 0 && rest.starts_with(['.', '…']))
        .then(|| word[..digits].parse().ok())
        .flatten()
}

/// The move in a movetext word, without a move number before it or marks
/// after it; `None` for a word that is only a number, an ellipsis or a `$n`.
fn move_part(word: &str) -> Option<&str> {
    if word.starts_with('$') {
        return None;
    }
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    // `1.`, `1...` and `1…` (as some programs write Black's moves) all number.
    let after_number = rest.trim_start_matches(['.', '…']);
    let body = if digits > 0 && after_number.len() < rest.len() {
        after_number
    } else {
        word.trim_start_matches('.').trim_start_matches('…')
    };
    // Marks after a move: `!`, `?`, and the `*` some books use for the only move.
    let body = body.trim_end_matches(['!', '?', '*']);
    (!body.is_empty()).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_from(moves: &[&str]) -> PdnGame {
        let rules = Setup::STANDARD;
        let mut g = PdnGame::new(rules, Position::START);
        let mut p = Position::START;
        for t in moves {
            let m = notation::parse_move(&rules, &p, t).unwrap();
            p = p.play(&m);
            g.moves.push(m);
        }
        g
    }

    #[test]
    fn writes_the_tags_and_numbered_moves() {
        let mut g = game_from(&["11-15", "23-19", "8-11"]);
        g.set_tag("Event", "Club \"night\"");
        g.set_tag("Black", "Ann");
        g.set_tag("Site", "Leeds");
        g.result = GameResult::Draw;
        assert_eq!(
            write(&g),
            "[Event \"Club \\\"night\\\"\"]\n[Site \"Leeds\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [Black \"Ann\"]\n[White \"?\"]\n[Result \"1/2-1/2\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 1/2-1/2\n"
        );
        let back = read(&write(&g), Setup::STANDARD).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, g.moves);
        assert_eq!(back[0].tag("Event"), Some("Club \"night\""));
        assert_eq!(back[0].result, GameResult::Draw);
    }

    #[test]
    fn a_setup_with_white_to_move_round_trips() {
        let start = fen::parse("W:W22,24:B18,19").unwrap();
        let mut g = PdnGame::new(Setup::with_captures(Captures::Optional), start);
        g.moves
            .push(notation::parse_move(&g.rules, &start, "22-17").unwrap());
        let text = write(&g);
        assert!(text.contains("[Captures \"optional\"]\n[SetUp \"1\"]\n[FEN \"W:W22,24:B18,19\"]"));
        assert!(text.ends_with("1... 22-17 *\n"));
        let back = read(&text, Setup::STANDARD).unwrap();
        assert_eq!(back.len(), 1);
        let b = &back[0];
        assert_eq!(
            (b.rules, b.start, &b.moves, b.result),
            (g.rules, g.start, &g.moves, g.result)
        );
        assert_eq!(write(b), text);
    }

    #[test]
    fn reads_several_games_comments_and_short_captures() {
        let text = "% a header line\n[Event \"one\"]\n1. 11-15 {book} 23-19 2. 8-11! (2. 9-14 22-17) 22-17?! $1 1-0\n\
                    [Event \"two\"]\n[FEN \"B:W14,22:B10\"]\n1.10x26 ; to the end\n0-1\n\
                    1. 9-13 *";
        let games = read(text, Setup::STANDARD).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].result, GameResult::BlackWins);
        assert_eq!(games[1].moves[0].to_string(), "10x17x26");
        assert_eq!(games[1].result, GameResult::WhiteWins);
        assert_eq!(games[2].tags, vec![]);
        assert_eq!(games[2].result, GameResult::Unfinished);
    }

    #[test]
    fn errors_name_the_game_the_move_and_the_token() {
        let err = |t: &str| read(t, Setup::STANDARD).unwrap_err().to_string();
        assert_eq!(
            err("1. 11-15 * 1. 11-15 23-19 2. 8-11 22-17 3. 9-14 17x3"),
            "game 2, move 3 (white), \"17x3\": 17x3 is not a legal move: the piece on 17 can play 17-13"
        );
        assert_eq!(
            err("[Event \"x\"]\n1. 11-15 22-17 2. 15-18 22-17"),
            "game 1, move 2 (white), \"22-17\": there is no piece on 22 (F6)"
        );
        assert_eq!(
            err("[FEN \"W:W21,22,B1\"] *"),
            "game 1: the FEN tag: \"W:W21,22,B1\" is not a FEN position: write the side to move, then each side's squares, like B:W21-32:B1-12 or W:W18,K10:B12,K22"
        );
        assert_eq!(
            err("[FEN \"B:W２１:B1\"] *"),
            "game 1: the FEN tag: \"B:W２１:B1\" uses full-width characters: type plain B:W21:B1"
        );
        assert_eq!(
            err("[GameType \"20\"] 1. 32-28 *"),
            "game 1, \"20\": GameType 20 is not English draughts: tallyho reads GameType 21"
        );
        assert_eq!(
            err("[Event \"x\" 1. 11-15"),
            "game 1, \"Event\": tag Event is never closed with ]"
        );
        assert_eq!(
            err("[Event \"unclosed\n[Site \"x\"]\n1. 11-15 *"),
            "game 1, \"Event\": the value of tag Event is not closed on its line: end it with \" before the line ends"
        );
        assert_eq!(
            err("[Event \"x\" junk]\n1. 11-15 *"),
            "game 1, \"Event\": tag Event has junk after its value: a tag holds one value in double quotes, like [Event \"Club night\"]"
        );
        assert_eq!(
            err("1. M11-15 22-18 *"),
            "game 1, move 1 (black), \"M11-15\": moves are written without a letter in front: 11-15"
        );
        assert_eq!(
            err("1. M11-17 22-18 *"),
            "game 1, move 1 (black), \"M11-17\": moves are written without a letter in front, and 11-17 is not a legal move: the piece on 11 can play 11-15 or 11-16"
        );
        assert_eq!(
            err(&format!("[Event \"x\" {}]\n1. 11-15 *", "j".repeat(31))),
            format!(
                "game 1, \"Event\": tag Event has {}… after its value: a tag holds one value in double quotes, like [Event \"Club night\"]",
                "j".repeat(30)
            )
        );
        assert_eq!(
            err("1. 11-15 {never"),
            "game 1: a comment { is never closed with }"
        );
        assert_eq!(
            err("[Result \"1-0\"] 1. 11-15 0-1"),
            "game 1, \"0-1\": the moves end with 0-1 but the Result tag says 1-0"
        );
        assert_eq!(
            err("[Result \"*\"] 1. 11-15 1-0"),
            "game 1, \"1-0\": the moves end with 1-0 but the Result tag says *"
        );
        // The two-point forms are quoted as written.
        assert_eq!(
            err("[Result \"2-0\"] 1. 11-15 0-2"),
            "game 1, \"0-2\": the moves end with 0-2 but the Result tag says 2-0"
        );
        assert_eq!(
            err("[FEN \"B:W1:B2\"] *"),
            "game 1, \"B:W1:B2\": the FEN tag: a white man stands on 1 (G1), its crowning row: make it a king (K1)"
        );
    }

    #[test]
    fn tags_written_alone_read_back() {
        let tags = vec![
            ("Event".to_string(), "Club \"night\" ]".to_string()),
            ("Site".to_string(), "Leeds\\North".to_string()),
        ];
        let text = write_tags(&tags);
        assert_eq!(
            text,
            "[Event \"Club \\\"night\\\" ]\"]\n[Site \"Leeds\\\\North\"]"
        );
        assert_eq!(read_tags(&text), tags);
        assert_eq!(
            read_tags("[Event \"a\"] 1. 11-15"),
            vec![("Event".into(), "a".into())]
        );
        assert_eq!(read_tags(""), vec![]);
        assert_eq!(
            read_tags_whole("[Event \"a\"]\n"),
            (vec![("Event".into(), "a".into())], true)
        );
        assert!(!read_tags_whole("[Event \"a\"] junk").1);
        assert!(!read_tags_whole("[Event").1);
    }

    #[test]
    fn a_move_after_a_side_had_no_move_is_past_the_end() {
        let err = |text: &str| read(text, Setup::STANDARD).unwrap_err().to_string();
        // White's man on 28 is blocked once Black plays 15-19.
        assert_eq!(
            err("[FEN \"B:W28:B24,15\"]\n1. 15-19 28-24 *"),
            "game 1, move 1 (white), \"28-24\": the game was over before this move: White is \
             to move and has no move, and has lost (1-0); its moves go on past its end"
        );
        // White's last piece taken.
        assert_eq!(
            err("[FEN \"B:W14:B10\"]\n1. 10x17 18-22 *"),
            "game 1, move 1 (white), \"18-22\": the game was over before this move: White is \
             to move and has no move, and has lost (1-0); its moves go on past its end"
        );
    }

    #[test]
    fn a_move_number_is_never_parted_from_its_move() {
        // Kings wandering, in games whose line breaks fall in many places.
        let rules = Setup::STANDARD;
        let start = fen::parse("B:WK29,K30,K31:BK1,K2,K3").unwrap();
        for choice in 1..8 {
            let mut game = read("*", rules).unwrap().remove(0);
            game.start = start;
            let mut pos = start;
            for i in 0..60 {
                let moves = rules.moves(&pos);
                let Some(&m) = moves.get((i * choice) % moves.len().max(1)) else {
                    break;
                };
                game.moves.push(m);
                pos = pos.play(&m);
            }
            let text = write(&game);
            let lines: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
            assert!(lines.len() > 1, "{text}");
            for line in lines {
                assert!(line.len() <= 79, "{line}");
                assert!(!line.ends_with('.'), "a number ends the line: {line}");
            }
            // And it reads back.
            assert_eq!(read(&text, rules).unwrap()[0].moves, game.moves);
        }
    }

    #[test]
    fn a_game_cut_off_with_no_winner_has_no_result() {
        assert_eq!(
            GameResult::from_outcome(Some(Outcome::Draw { how: "abandoned" })),
            GameResult::Unfinished
        );
        assert_eq!(
            GameResult::from_outcome(Some(Outcome::Draw { how: "agreed" })),
            GameResult::Draw
        );
    }

    #[test]
    fn results_are_never_read_as_moves() {
        for (t, r) in [
            ("1-0", GameResult::BlackWins),
            ("0-1", GameResult::WhiteWins),
            ("1/2-1/2", GameResult::Draw),
            ("*", GameResult::Unfinished),
            // With an en or em dash, as a word processor writes them.
            ("1\u{2013}0", GameResult::BlackWins),
            ("0\u{2014}2", GameResult::WhiteWins),
        ] {
            let games = read(&format!("1. 11-15 {t}"), Setup::STANDARD).unwrap();
            assert_eq!((games.len(), games[0].result), (1, r));
        }
    }

    #[test]
    fn text_after_a_result_is_a_game_of_its_own_and_renumbers_none() {
        let text = "[Event \"a\"]\n\n1. 11-15 *\njunk\n[Event \"b\"]\n\n1. 9-13 *\n\n[Event \"c\"]\n\n1. 10-14 *\n";
        let games = read_each(text, Setup::STANDARD);
        assert_eq!(games.len(), 4, "{games:?}");
        let event = |i: usize| games[i].as_ref().ok().and_then(|g| g.tag("Event"));
        assert_eq!(event(0), Some("a"));
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "game 2, \"junk\": after the result of game 1, a game begins with its tags or with move 1"
        );
        assert_eq!((event(2), event(3)), (Some("b"), Some("c")));
        // Moves after a result, with no tags and not from move 1, likewise.
        let games = read_each(
            "1. 11-15 23-19 * 2. 8-11\n[Event \"b\"] 1. 9-13 *",
            Setup::STANDARD,
        );
        assert_eq!(games.len(), 3, "{games:?}");
        assert!(games[0].is_ok() && games[2].is_ok(), "{games:?}");
        assert_eq!(games[1].as_ref().unwrap_err().game, 2);
        // A result straight after a result, likewise: no empty game 2.
        let games = read_each("1. 11-15 1-0 *\n[Event \"b\"] 1. 9-13 *", Setup::STANDARD);
        assert_eq!(games.len(), 3, "{games:?}");
        assert!(games[0].is_ok() && games[2].is_ok(), "{games:?}");
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "game 2, \"*\": after the result of game 1, another result: a game begins with its tags or with move 1"
        );
        // Move 1 after stray text or a stray result begins the next game,
        // as tags would: nothing after the damage is swallowed.
        for text in [
            "1. 11-15 1-0 *\n1. 9-14 *",
            "1. 11-15 1-0\nhello\n1. 9-14 *",
        ] {
            let games = read_each(text, Setup::STANDARD);
            assert_eq!(games.len(), 3, "{text:?}: {games:?}");
            assert!(games[1].is_err(), "{text:?}: {games:?}");
            let third = games[2].as_ref().expect("game 3 reads");
            assert_eq!(third.moves.len(), 1, "{text:?}: {third:?}");
        }
        // A damaged game with no result ends at the next tags.
        let games = read_each(
            "[Event \"a\"]\n1. 11-15 99-1\n[Event \"b\"]\n1. 9-13 *\n[Event \"c\"] } \n[Event \"d\"] 1. 9-14 *",
            Setup::STANDARD,
        );
        let events: Vec<_> = games
            .iter()
            .map(|g| g.as_ref().map(|g| g.tag("Event")).map_err(|e| e.game))
            .collect();
        assert_eq!(events, vec![Err(1), Ok(Some("b")), Err(3), Ok(Some("d"))]);
        // A comment after a result is no game.
        let games = read(
            "[Event \"a\"] 1. 11-15 1-0 {resigned}\n[Event \"b\"] 1. 9-13 *",
            Setup::STANDARD,
        )
        .unwrap();
        assert_eq!(games.len(), 2);
    }

    #[test]
    fn a_tag_reads_the_escapes_tallyho_writes() {
        let value = |v: &str| {
            read_tags(&format!("[Event \"{v}\"]"))
                .first()
                .map(|(_, value)| value.clone())
        };
        assert_eq!(value("\\u{1b}[31m"), Some("\u{1b}[31m".into()));
        assert_eq!(value("\\u{1F600}"), Some("\u{1F600}".into()));
        assert_eq!(value("\\\\u{41}"), Some("\\u{41}".into()));
        assert_eq!(value("\\\"q\\\""), Some("\"q\"".into()));
        // Line ends, as `quote` writes them, read back.
        let ends = "a\nb\r\nc";
        assert_eq!(
            write_tags(&[("Event".into(), ends.into())]),
            "[Event \"a\\u{a}b\\u{d}\\u{a}c\"]"
        );
        assert_eq!(
            read_tags(&write_tags(&[("Event".into(), ends.into())]))[0].1,
            ends
        );
        // No escape of tallyho's: the backslash goes, the rest stays text.
        for (v, read) in [
            ("\\u{110000}", "u{110000}"),
            ("\\u{}", "u{}"),
            ("\\u{1b", "u{1b"),
            ("\\u{1234567}", "u{1234567}"),
            ("\\ux", "ux"),
        ] {
            assert_eq!(value(v), Some(read.into()), "{v}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_read_as_windows_1252() {
        assert_eq!(
            decode(b"[Annotator \"M\xfcller\"]"),
            ("[Annotator \"Müller\"]".into(), Some(1))
        );
        // Its quotes and ellipsis too, and the bytes it leaves undefined.
        assert_eq!(
            decode(b"\n\x93a\x94 1\x85 \x81"),
            ("\n\u{201c}a\u{201d} 1\u{2026} \u{81}".into(), Some(2))
        );
        // UTF-8 beside them stays as it is, a byte order mark too.
        let mixed = [&b"\xef\xbb\xbf"[..], "Müller\n\n".as_bytes(), b"M\xfcller"].concat();
        assert_eq!(decode(&mixed), ("\u{feff}Müller\n\nMüller".into(), Some(3)));
        assert_eq!(decode("Müller 1…".as_bytes()), ("Müller 1…".into(), None));
        // Lines counted as the reader counts them: CR, LF or CRLF.
        assert_eq!(decode(b"a\rb\r\nc\nd\xfc").1, Some(4));
    }

    #[test]
    fn utf16_and_utf32_are_told_from_utf8() {
        let text = "[Event \"Café\"]\n[Black \"狐狸\"]\n1. 11-15 23-19 *\n";
        let utf16 = |big: bool, bom: bool| -> Vec<u8> {
            let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
            units
                .flat_map(|u| {
                    if big {
                        u.to_be_bytes()
                    } else {
                        u.to_le_bytes()
                    }
                })
                .collect()
        };
        let utf32 = |big: bool, bom: bool| -> Vec<u8> {
            let chars = bom.then_some('\u{feff}').into_iter().chain(text.chars());
            chars
                .flat_map(|c| {
                    let c = c as u32;
                    if big {
                        c.to_be_bytes()
                    } else {
                        c.to_le_bytes()
                    }
                })
                .collect()
        };
        for big_endian in [false, true] {
            for bom in [false, true] {
                let case = (big_endian, bom);
                assert_eq!(
                    wrong_encoding(&utf16(big_endian, bom)),
                    Some(Encoding::Utf16 { big_endian }),
                    "{case:?}"
                );
                assert_eq!(
                    wrong_encoding(&utf32(big_endian, bom)),
                    Some(Encoding::Utf32 { big_endian }),
                    "{case:?}"
                );
            }
        }
        assert_eq!(
            Encoding::Utf16 { big_endian: false }.to_string(),
            "UTF-16 (little-endian)"
        );
        assert_eq!(
            Encoding::Utf32 { big_endian: true }.to_string(),
            "UTF-32 (big-endian)"
        );
        // One character is enough; UTF-8, with its mark or without, is none.
        assert_eq!(
            wrong_encoding(b"*\0"),
            Some(Encoding::Utf16 { big_endian: false })
        );
        for utf8 in [text.as_bytes(), b"\xEF\xBB\xBF1. 11-15 *", b"", b"*"] {
            assert_eq!(wrong_encoding(utf8), None, "{utf8:?}");
        }
        // A stray zero byte in UTF-8 text is no encoding.
        assert_eq!(wrong_encoding(b"1. 11-15\0 23-19 *"), None);
    }

    #[test]
    fn a_byte_order_mark_is_blank() {
        let one = "\u{feff}[Event \"E\"]\n\n1. 11-15 23-19 *\n";
        let games = read_each(&one.repeat(2), Setup::STANDARD);
        assert_eq!(games.len(), 2, "{games:?}");
        for g in &games {
            assert_eq!(g.as_ref().map(|g| g.moves.len()), Ok(2));
        }
        let games = read(
            "\u{feff}\u{feff}% note\n1.\u{feff}11-15 \u{feff}*",
            Setup::STANDARD,
        )
        .unwrap();
        assert_eq!((games.len(), games[0].moves.len()), (1, 1));
    }

    #[test]
    fn tags_at_every_limit_keep_a_log_record_far_below_a_mebibyte() {
        let mut g = game_from(&["11-15"]);
        for i in 0..MAX_TAGS {
            let name = format!("T{i:0>39}");
            assert_eq!(name.chars().count(), MAX_TAG_NAME);
            g.tags.push((name, "\u{1}".repeat(MAX_TAG_VALUE)));
        }
        assert_eq!(g.check_carried(), Ok(()));
        // As the log keeps them: tags as PDN, in a JSON string.
        let record = serde_json::to_string(&write_tags(&g.tags)).unwrap();
        assert!(record.len() < 170_000, "{}", record.len());
        g.tags.push(("Event".into(), "x".into()));
        assert_eq!(g.check_carried(), Err(Oversized::Tags(MAX_TAGS + 1)));
        g.tags = vec![("Event".into(), "é".repeat(MAX_TAG_VALUE + 1))];
        assert_eq!(
            g.check_carried().unwrap_err().to_string(),
            "the value of tag Event is 501 characters long; a tag's value may be at most 500"
        );
        g.tags = vec![("E".repeat(41), String::new())];
        assert_eq!(
            g.check_carried().unwrap_err().to_string(),
            "the name of tag EEEEEEEEEEEEEEEEEEEE… is 41 characters long; a tag's name may be at most 40"
        );
    }
}
