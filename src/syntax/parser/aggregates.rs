//! What body and head aggregates share: the aggregate function, the braces
//! of elements separated by `;`, an element's tuple, and the guard after
//! the closing bracket (lparse's bare upper bound included).

use super::lexer::K;
use super::literals::comparison;
use super::{PResult, Parser};
use crate::syntax::ast::{AggregateFunction, CmpOp, Guard, Term};

const AGGREGATE_FUNCTIONS: &[&str] = &[
    "#count", "#sum", "#min", "#max", "#avg", "#times", "#even", "#odd",
];

impl Parser<'_> {
    /// Whether an aggregate (`{`, `[` or `#count` and friends) starts at `index`.
    pub(super) fn aggregate_at(&self, index: usize) -> bool {
        matches!(self.peek_at(index), K::LBrace | K::LBrack)
            || self
                .directive_at(index)
                .is_some_and(|d| AGGREGATE_FUNCTIONS.contains(&d))
    }

    /// The aggregate function directive at the current token, if any:
    /// `Ok(None)` when there is none, `Err` naming an unsupported one.
    pub(super) fn aggregate_function(
        &mut self,
    ) -> PResult<Result<Option<AggregateFunction>, String>> {
        if !self.at(K::Directive) {
            return Ok(Ok(None));
        }
        let token = self.bump();
        Ok(Ok(Some(match self.text(token) {
            "#count" => AggregateFunction::Count,
            "#sum" if self.at(K::Plus) && self.tok().start == token.end => {
                self.bump();
                AggregateFunction::SumPlus
            }
            "#sum" => AggregateFunction::Sum,
            "#min" => AggregateFunction::Min,
            "#max" => AggregateFunction::Max,
            other => return Ok(Err(format!("`{other}` aggregates"))),
        })))
    }

    /// `{ e1; ..; en }`: each element parsed by `element` from its first
    /// token's offset (more than one when its condition has alternatives),
    /// `;` between them.
    pub(super) fn braced_elements<T>(
        &mut self,
        mut element: impl FnMut(&mut Self, usize) -> PResult<Vec<T>>,
    ) -> PResult<Vec<T>> {
        self.bump(); // {
        let mut elements = Vec::new();
        loop {
            if self.eat(K::RBrace).is_some() {
                return Ok(elements);
            }
            let start = self.tok().start;
            elements.extend(element(self, start)?);
            self.element_separator()?;
        }
    }

    /// An aggregate element's tuple `t1, .., tk`, empty before `:`, `;`
    /// or `}`.
    pub(super) fn element_terms(&mut self) -> PResult<Vec<Term>> {
        let mut terms = Vec::new();
        if matches!(self.peek(), K::Colon | K::Semi | K::RBrace) {
            return Ok(terms);
        }
        loop {
            terms.push(self.term()?);
            if self.eat(K::Comma).is_none() {
                return Ok(terms);
            }
        }
    }

    /// After an element of braces: `;` before the next one, or the `}`,
    /// which the caller takes.
    fn element_separator(&mut self) -> PResult<()> {
        match self.peek() {
            K::Semi => {
                self.bump();
                Ok(())
            }
            K::RBrace => Ok(()),
            _ => Err(self.expected("} or ;")),
        }
    }

    /// The guard after an aggregate's closing bracket, if any: `op t`, or
    /// lparse's bare upper bound `t`.
    pub(super) fn right_guard(&mut self) -> PResult<Option<Guard>> {
        let op = match comparison(self.peek()) {
            Some(op) => {
                self.bump();
                op
            }
            None if self.term_starts() => CmpOp::Le,
            None => return Ok(None),
        };
        Ok(Some(Guard {
            op,
            term: self.term()?,
        }))
    }
}
