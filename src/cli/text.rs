//! Program text as asp2sat reads and writes it: an input file read whole
//! (at most [`MAX_INPUT_BYTES`]), the bytes of its strings that are not
//! UTF-8 kept as private code points ([`decode`]) and written back as bytes
//! ([`RawBytes`]), as clingo, which reads its input as bytes, prints them.

use std::io::{Read, Write};
use std::path::Path;

/// The largest input file asp2sat reads: far above real programs (a
/// million facts take 25 MB), far below what would exhaust memory.
const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads one input file, at most [`MAX_INPUT_BYTES`] (see [`read_text`]).
/// An `#include`d file must be a regular file (`#include "/dev/zero".` is
/// an error at once); a file named on the command line may be a pipe or
/// `/dev/stdin`.
pub(super) fn read_input(path: &Path, included: bool) -> std::io::Result<Text> {
    let file = std::fs::File::open(path)?;
    if included && !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    read_text(file)
}

/// Program text as asp2sat reads it (see [`decode`]).
pub(super) struct Text {
    pub(super) text: String,
    /// Where in `text` lies the first thing that cannot be read, and why.
    pub(super) unreadable: Option<(std::ops::Range<usize>, String)>,
}

/// Reads at most [`MAX_INPUT_BYTES`] of program text (see [`decode`]). An
/// editor's byte-order mark is skipped.
pub(super) fn read_text(reader: impl Read) -> std::io::Result<Text> {
    use std::io::{Error, ErrorKind};
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_INPUT_BYTES >> 20),
        ));
    }
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) if !text.contains(is_raw_byte) => Text {
            text,
            unreadable: None,
        },
        Ok(text) => decode(text.as_bytes()),
        Err(e) => decode(e.as_bytes()),
    })
}

/// The first of the code points U+10FF80..=U+10FFFF (the end of the last
/// private use plane), which stand for the bytes 0x80..=0xFF of a string
/// literal that are not UTF-8: clingo reads its input as bytes and prints
/// such a string byte for byte, and so does asp2sat (see [`RawBytes`]).
/// One character per byte keeps columns as clingo counts them. In term
/// order such a byte sorts after every character that is not ASCII, where
/// clingo compares the bytes.
const RAW_BYTES: u32 = 0x10_FF80;

fn is_raw_byte(c: char) -> bool {
    u32::from(c) >= RAW_BYTES
}

/// Program text from bytes that are not all UTF-8, or that hold the code
/// points of [`RAW_BYTES`]. A byte that is not UTF-8 is kept as its code
/// point, in a string literal and in code (where the lexer reports it as
/// clingo does, each byte located), and becomes `?` in a comment (Latin-1
/// is common in old programs' comments). One of those code points in a
/// string is refused (it would be
/// printed as a byte). Only ASCII changes where the lexer is: the states follow the
/// parser's lexer (nested block comments, `#!` lines, strings that end at
/// a line's end).
fn decode(bytes: &[u8]) -> Text {
    #[derive(Clone, Copy)]
    enum State {
        Code,
        String,
        LineComment,
        BlockComment(usize),
    }
    let mut state = State::Code;
    let mut text = String::with_capacity(bytes.len());
    let mut unreadable = None;
    for chunk in bytes.utf8_chunks() {
        let mut chars = chunk.valid().chars().peekable();
        while let Some(c) = chars.next() {
            let at = text.len();
            text.push(c);
            let next = chars.peek().copied();
            let mut take_next = || text.extend(chars.next());
            state = match (state, c, next) {
                (State::Code, '%', Some('*')) => {
                    take_next();
                    State::BlockComment(1)
                }
                (State::Code, '%', _) | (State::Code, '#', Some('!')) => State::LineComment,
                (State::Code, '"', _) => State::String,
                (State::String, '\\', Some(n)) if n != '\n' && !is_raw_byte(n) => {
                    take_next();
                    State::String
                }
                (State::String, '"' | '\n', _) | (State::LineComment, '\n', _) => State::Code,
                (State::String, c, _) if is_raw_byte(c) => {
                    unreadable.get_or_insert((
                        at..text.len(),
                        format!(
                            "the character U+{:X} in a string: asp2sat reads U+{RAW_BYTES:X}..U+10FFFF \
                             as the bytes of a string that are not UTF-8",
                            u32::from(c)
                        ),
                    ));
                    State::String
                }
                (State::BlockComment(1), '*', Some('%')) => {
                    take_next();
                    State::Code
                }
                (State::BlockComment(depth), '*', Some('%')) => {
                    take_next();
                    State::BlockComment(depth - 1)
                }
                (State::BlockComment(depth), '%', Some('*')) => {
                    take_next();
                    State::BlockComment(depth + 1)
                }
                (state, _, _) => state,
            };
        }
        for &byte in chunk.invalid() {
            match state {
                // In code, the lexer's error, printed with the byte itself as
                // clingo prints it.
                State::String | State::Code => {
                    text.extend(char::from_u32(RAW_BYTES - 0x80 + u32::from(byte)))
                }
                State::LineComment | State::BlockComment(_) => text.push('?'),
            }
        }
    }
    Text { text, unreadable }
}

/// Writes text with each code point of [`RAW_BYTES`] as its byte again.
/// Each write must hold whole characters, as the writes of formatting and
/// of a `str` do.
pub(super) struct RawBytes<W: Write>(pub(super) W);

impl<W: Write> Write for RawBytes<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        // U+10FF80..=U+10FFFF is F4 8F BE 80..=F4 8F BF BF in UTF-8.
        while let Some(at) = rest.iter().position(|&b| b == 0xF4) {
            if let Some(&[_, 0x8F, third @ (0xBE | 0xBF), fourth]) = rest.get(at..at + 4) {
                self.0.write_all(&rest[..at])?;
                self.0
                    .write_all(&[0x80 | ((third & 1) << 6) | (fourth & 0x3F)])?;
                rest = &rest[at + 4..];
            } else {
                self.0.write_all(&rest[..=at])?;
                rest = &rest[at + 1..];
            }
        }
        self.0.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_of_a_string_is_written_back_as_read() {
        let mut program = b"p(\"".to_vec();
        program.extend(0x80..=0xFF);
        program.extend(b"\\\"\xe9\xa9\"). % \xe9\n");
        let Text { text, unreadable } = decode(&program);
        assert!(unreadable.is_none());
        let mut out = RawBytes(Vec::new());
        out.write_all(text.as_bytes()).unwrap();
        let comment = program.len() - 2;
        assert_eq!(out.0[..comment], program[..comment]);
        assert_eq!(&out.0[comment..], b"?\n");
    }
}
