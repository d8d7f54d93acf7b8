//! Compiled terms: evaluation under a variable binding, and matching against
//! ground symbols.
//!
//! Arithmetic follows clingo: 32-bit integers that wrap on overflow, division
//! truncating toward zero, and an undefined operation (division by zero, a
//! non-integer operand) making the whole term undefined, which drops the rule
//! instance that needed it.
//!
//! A term with a single occurrence of one variable under `+`, `-` and `*`
//! by integers is kept as the linear term `m*X+n`, as gringo's `LinearTerm`
//! is: matching it against a number solves for `X`, so `p(N-1)` or
//! `Y'-1 = Y` binds the variable instead of needing it bound.

use crate::symbols::{NameId, SymId, SymbolTable};
use crate::syntax::ast::{BinaryOp, CmpOp};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op1 {
    Minus,
    BitNot,
    Abs,
}

/// A term over numbered variables. Ground subterms are folded to `Sym`.
#[derive(Clone, Debug)]
pub enum CTerm {
    Sym(SymId),
    Var(usize),
    Fun {
        name: NameId,
        args: Vec<CTerm>,
    },
    Unary(Op1, Box<CTerm>),
    Binary(BinaryOp, Box<CTerm>, Box<CTerm>),
    /// `mul * var + add` over integers, `mul != 0`; wraps like the
    /// operations it stands for.
    Linear {
        var: usize,
        mul: i32,
        add: i32,
    },
}

/// A variable binding: `None` for unbound variables.
pub type Env = [Option<SymId>];

impl CTerm {
    pub fn function(symbols: &mut SymbolTable, name: &str, args: Vec<CTerm>) -> CTerm {
        if let Some(ground) = ground_args(&args) {
            return CTerm::Sym(symbols.function(name, &ground, false));
        }
        CTerm::Fun {
            name: symbols.name(name),
            args,
        }
    }

    /// A term that no binding defines (`1/0`): the value of a `#const`
    /// whose own value is undefined (`#const s = n*2.`). Like that value
    /// written in its place, it takes away the literal, bound or rule
    /// instance that holds it.
    pub fn undefined(symbols: &mut SymbolTable) -> CTerm {
        let (one, zero) = (symbols.number(1), symbols.number(0));
        CTerm::Binary(
            BinaryOp::Div,
            Box::new(CTerm::Sym(one)),
            Box::new(CTerm::Sym(zero)),
        )
    }

    pub fn unary(symbols: &mut SymbolTable, op: Op1, arg: CTerm) -> CTerm {
        if let CTerm::Sym(s) = arg
            && let Some(value) = apply1(symbols, op, s)
        {
            return CTerm::Sym(value);
        }
        // `-X` alone stays unary: it also negates function terms.
        if let (Op1::Minus, CTerm::Linear { var, mul, add }) = (op, &arg)
            && let (Some(mul), Some(add)) = (mul.checked_neg(), add.checked_neg())
        {
            return CTerm::Linear {
                var: *var,
                mul,
                add,
            };
        }
        CTerm::Unary(op, Box::new(arg))
    }

    pub fn binary(symbols: &mut SymbolTable, op: BinaryOp, lhs: CTerm, rhs: CTerm) -> CTerm {
        if let (CTerm::Sym(a), CTerm::Sym(b)) = (&lhs, &rhs)
            && let Some(value) = apply2(symbols, op, *a, *b)
        {
            return CTerm::Sym(value);
        }
        if let Some(linear) = linear_combination(symbols, op, &lhs, &rhs) {
            return linear;
        }
        CTerm::Binary(op, Box::new(lhs), Box::new(rhs))
    }

    pub fn for_each_var(&self, f: &mut impl FnMut(usize)) {
        match self {
            CTerm::Sym(_) => {}
            CTerm::Var(v) | CTerm::Linear { var: v, .. } => f(*v),
            CTerm::Fun { args, .. } => args.iter().for_each(|a| a.for_each_var(f)),
            CTerm::Unary(_, a) => a.for_each_var(f),
            CTerm::Binary(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }

    /// Variables that matching can bind: those not under arithmetic (unary
    /// minus and linear terms are invertible, so they do not count).
    pub fn for_each_matchable_var(&self, f: &mut impl FnMut(usize)) {
        match self {
            CTerm::Var(v) | CTerm::Linear { var: v, .. } => f(*v),
            CTerm::Fun { args, .. } => args.iter().for_each(|a| a.for_each_matchable_var(f)),
            CTerm::Unary(Op1::Minus, a) => a.for_each_matchable_var(f),
            _ => {}
        }
    }

    /// Whether every variable that matching cannot bind is bound already.
    pub fn inputs_bound(&self, bound: &[bool]) -> bool {
        match self {
            CTerm::Sym(_) | CTerm::Var(_) | CTerm::Linear { .. } => true,
            CTerm::Fun { args, .. } => args.iter().all(|a| a.inputs_bound(bound)),
            CTerm::Unary(Op1::Minus, a) => a.inputs_bound(bound),
            CTerm::Unary(..) | CTerm::Binary(..) => self.is_bound(bound),
        }
    }

    pub fn is_bound(&self, bound: &[bool]) -> bool {
        let mut all = true;
        self.for_each_var(&mut |v| all &= bound[v]);
        all
    }

    /// The value of the term; `None` when an operation is undefined. Every
    /// variable must be bound. Symbols and variables, most of the terms
    /// joins evaluate, are answered inline.
    #[inline]
    pub fn eval(&self, symbols: &mut SymbolTable, env: &Env) -> Option<SymId> {
        match self {
            CTerm::Sym(s) => Some(*s),
            CTerm::Var(v) => env[*v],
            _ => self.eval_compound(symbols, env),
        }
    }

    fn eval_compound(&self, symbols: &mut SymbolTable, env: &Env) -> Option<SymId> {
        match self {
            CTerm::Sym(s) => Some(*s),
            CTerm::Var(v) => env[*v],
            CTerm::Fun { name, args } => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(a.eval(symbols, env)?);
                }
                Some(symbols.function_of(*name, &values, false))
            }
            CTerm::Unary(op, a) => {
                let a = a.eval(symbols, env)?;
                apply1(symbols, *op, a)
            }
            CTerm::Binary(op, a, b) => {
                let a = a.eval(symbols, env)?;
                let b = b.eval(symbols, env)?;
                apply2(symbols, *op, a, b)
            }
            CTerm::Linear { var, mul, add } => {
                let x = symbols.as_number(env[*var]?)?;
                Some(symbols.number(mul.wrapping_mul(x).wrapping_add(*add)))
            }
        }
    }

    /// Matches the term against `value`, binding unbound variables and
    /// recording them in `trail` so the caller can undo them. Symbols and
    /// variables are matched inline.
    #[inline]
    pub fn matches(
        &self,
        symbols: &mut SymbolTable,
        value: SymId,
        env: &mut [Option<SymId>],
        trail: &mut Vec<usize>,
    ) -> bool {
        match self {
            CTerm::Sym(s) => *s == value,
            CTerm::Var(v) => match env[*v] {
                Some(bound) => bound == value,
                None => {
                    env[*v] = Some(value);
                    trail.push(*v);
                    true
                }
            },
            _ => self.matches_compound(symbols, value, env, trail),
        }
    }

    fn matches_compound(
        &self,
        symbols: &mut SymbolTable,
        value: SymId,
        env: &mut [Option<SymId>],
        trail: &mut Vec<usize>,
    ) -> bool {
        match self {
            CTerm::Sym(_) | CTerm::Var(_) => self.matches(symbols, value, env, trail),
            CTerm::Fun { name, args } => {
                match symbols.as_function(value) {
                    Some((n, a, false)) if a.len() == args.len() && n == *name => {}
                    _ => return false,
                }
                for (i, arg) in args.iter().enumerate() {
                    let sub = symbols.args(value)[i];
                    if !arg.matches(symbols, sub, env, trail) {
                        return false;
                    }
                }
                true
            }
            CTerm::Linear { var, mul, add } if env[*var].is_none() => {
                // `mul * x + add = value` has an integer solution only when
                // `mul` divides `value - add`.
                let Some(value) = symbols.as_number(value) else {
                    return false;
                };
                let difference = value.wrapping_sub(*add);
                if difference.wrapping_rem(*mul) != 0 {
                    return false;
                }
                let x = symbols.number(difference.wrapping_div(*mul));
                env[*var] = Some(x);
                trail.push(*var);
                true
            }
            CTerm::Unary(Op1::Minus, a) if !a.is_bound_in(env) => {
                match apply1(symbols, Op1::Minus, value) {
                    Some(inverse) => a.matches(symbols, inverse, env, trail),
                    None => false,
                }
            }
            _ => self.eval(symbols, env) == Some(value),
        }
    }

    fn is_bound_in(&self, env: &Env) -> bool {
        let mut all = true;
        self.for_each_var(&mut |v| all &= env[v].is_some());
        all
    }
}

/// `lhs op rhs` as one linear term when one side is linear (or a variable)
/// and the other an integer, without overflow in the coefficients.
fn linear_combination(
    symbols: &SymbolTable,
    op: BinaryOp,
    lhs: &CTerm,
    rhs: &CTerm,
) -> Option<CTerm> {
    let as_linear = |t: &CTerm| match t {
        CTerm::Var(var) => Some((*var, 1, 0)),
        CTerm::Linear { var, mul, add } => Some((*var, *mul, *add)),
        // `-X` alone may negate a function term, but under `+`, `-` or `*`
        // it must be a number.
        CTerm::Unary(Op1::Minus, inner) => match **inner {
            CTerm::Var(var) => Some((var, -1, 0)),
            _ => None,
        },
        _ => None,
    };
    let as_integer = |t: &CTerm| match *t {
        CTerm::Sym(s) => symbols.as_number(s),
        _ => None,
    };
    let (var, mul, add) = match (op, as_linear(lhs), as_linear(rhs)) {
        (BinaryOp::Add, Some((v, m, a)), None) => (v, m, a.checked_add(as_integer(rhs)?)?),
        (BinaryOp::Add, None, Some((v, m, a))) => (v, m, a.checked_add(as_integer(lhs)?)?),
        (BinaryOp::Sub, Some((v, m, a)), None) => (v, m, a.checked_sub(as_integer(rhs)?)?),
        (BinaryOp::Sub, None, Some((v, m, a))) => {
            (v, m.checked_neg()?, as_integer(lhs)?.checked_sub(a)?)
        }
        (BinaryOp::Mul, Some((v, m, a)), None) => {
            let c = as_integer(rhs)?;
            (v, m.checked_mul(c)?, a.checked_mul(c)?)
        }
        (BinaryOp::Mul, None, Some((v, m, a))) => {
            let c = as_integer(lhs)?;
            (v, m.checked_mul(c)?, a.checked_mul(c)?)
        }
        _ => return None,
    };
    // `0 * X` does not determine X: clingo calls it unsafe.
    (mul != 0).then_some(CTerm::Linear { var, mul, add })
}

fn ground_args(args: &[CTerm]) -> Option<Vec<SymId>> {
    args.iter()
        .map(|a| match a {
            CTerm::Sym(s) => Some(*s),
            _ => None,
        })
        .collect()
}

fn apply1(symbols: &mut SymbolTable, op: Op1, value: SymId) -> Option<SymId> {
    // Function terms and tuples are negated by their sign: `-(1,2)`.
    if let (Op1::Minus, Some((name, args, negative))) = (op, symbols.as_function(value)) {
        let args = args.to_vec();
        return Some(symbols.function_of(name, &args, !negative));
    }
    let n = symbols.as_number(value)?;
    Some(symbols.number(integer_unary(op, n)))
}

/// `op n` over integers, wrapping as clingo does.
pub fn integer_unary(op: Op1, n: i32) -> i32 {
    match op {
        Op1::Minus => n.wrapping_neg(),
        Op1::BitNot => !n,
        Op1::Abs => n.wrapping_abs(),
    }
}

fn apply2(symbols: &mut SymbolTable, op: BinaryOp, a: SymId, b: SymId) -> Option<SymId> {
    let (a, b) = (symbols.as_number(a)?, symbols.as_number(b)?);
    Some(symbols.number(integer_binary(op, a, b)?))
}

/// `a op b` over integers, wrapping as clingo does; `None` where it is
/// undefined (a division by zero).
pub fn integer_binary(op: BinaryOp, a: i32, b: i32) -> Option<i32> {
    Some(match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div if b == 0 => return None,
        BinaryOp::Div => a.wrapping_div(b),
        BinaryOp::Mod if b == 0 => return None,
        BinaryOp::Mod => a.wrapping_rem(b),
        BinaryOp::Pow => power(a, b)?,
        BinaryOp::BitAnd => a & b,
        BinaryOp::BitOr => a | b,
        BinaryOp::BitXor => a ^ b,
    })
}

/// `base ** exponent` as clingo 5.4 and 5.8 compute it: wrapping, and for a
/// negative exponent 0 for every base but 0, where it is undefined (even
/// `1 ** -1` is 0).
fn power(base: i32, exponent: i32) -> Option<i32> {
    if exponent < 0 {
        return (base != 0).then_some(0);
    }
    Some(base.wrapping_pow(exponent as u32))
}

/// Compares two ground terms in clingo's term order.
pub fn compare(symbols: &SymbolTable, op: CmpOp, a: SymId, b: SymId) -> bool {
    // Interned terms are equal exactly when their ids are; the order is
    // computed only for the ordering comparisons.
    let order = || match (symbols.as_number(a), symbols.as_number(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => symbols.compare(a, b),
    };
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        _ => op.holds(order()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval2(op: BinaryOp, a: i32, b: i32) -> Option<i32> {
        let mut t = SymbolTable::default();
        let (a, b) = (t.number(a), t.number(b));
        let r = apply2(&mut t, op, a, b)?;
        t.as_number(r)
    }

    /// Values checked against clingo 5.4.
    #[test]
    fn arithmetic_matches_clingo() {
        use BinaryOp::*;
        let cases = [
            (Div, -7, 2, Some(-3)),
            (Mod, -7, 2, Some(-1)),
            (Mod, 7, -2, Some(1)),
            (Pow, 2, -1, Some(0)),
            (Pow, 0, -1, None),
            (Pow, 1, -1, Some(0)),
            (Pow, -1, -2, Some(0)),
            (Pow, 0, 0, Some(1)),
            (Pow, 2, 31, Some(i32::MIN)),
            (Add, i32::MAX, 1, Some(i32::MIN)),
            (Div, 1, 0, None),
            (BitAnd, 5, 3, Some(1)),
            (BitOr, 5, 3, Some(7)),
            (BitXor, 5, 3, Some(6)),
        ];
        for (op, a, b, expected) in cases {
            assert_eq!(eval2(op, a, b), expected, "{a} {op:?} {b}");
        }
    }

    #[test]
    fn unary_minus_negates_functions_but_not_strings() {
        let mut t = SymbolTable::default();
        let a = t.function("a", &[], false);
        let neg = apply1(&mut t, Op1::Minus, a).unwrap();
        assert_eq!(t.display(neg).to_string(), "-a");
        let s = t.string("s");
        assert_eq!(apply1(&mut t, Op1::Minus, s), None);
        let (one, two) = (t.number(1), t.number(2));
        let tuple = t.function("", &[one, two], false);
        let neg = apply1(&mut t, Op1::Minus, tuple).unwrap();
        assert_eq!(t.display(neg).to_string(), "-(1,2)");
        assert_eq!(apply1(&mut t, Op1::Minus, neg), Some(tuple));
        let five = t.number(5);
        let r = apply1(&mut t, Op1::BitNot, five).unwrap();
        assert_eq!(t.as_number(r), Some(-6));
    }
}
