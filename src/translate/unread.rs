//! Atoms the search does not need: those only the output reads, defined by
//! normal rules or as aggregate atoms, with nothing but such atoms reading
//! them, and on no cycle among themselves. `total(T) :- T = #sum{ N,S :
//! start(S,N) }.` with `total/1` only shown is one aggregate atom per value
//! of `T` over one diagram (post_office: 75,000 of the 87,000 variables and
//! 290,000 of the 331,000 clauses). By the splitting set theorem the answer
//! sets are those of the program without their rules, each extended by the
//! one model of their rules over it (they form an acyclic program on top),
//! so they get no clause and share one variable, fixed false; each answer
//! set read from a model evaluates those the output shows, and those they
//! read, in an order where every atom comes after those it reads.
//!
//! Only for a search that reads no more than the answer sets: the exact
//! translation keeps every atom, and projection and consequences, which
//! speak of the atoms' variables, do not ask for this.

use super::Cond;
use crate::ground::program::{AggregateDefinition, AtomId, Body, GroundProgram, Head};
use crate::symbols::SymId;
use rustc_hash::{FxHashMap, FxHashSet};
use varisat_formula::Var;

/// How an unread atom gets its truth.
#[derive(Clone, Debug)]
enum Definition {
    /// True when one of the bodies of its rules holds.
    Rules(Vec<Body>),
    /// True when its aggregate holds.
    Aggregate(AggregateDefinition),
}

/// The unread atoms of a program and the definitions of those the output
/// shows, directly or through others.
#[derive(Clone, Debug, Default)]
pub struct UnreadAtoms {
    /// Per atom, whether it is unread (empty when none is sought).
    unread: Vec<bool>,
    /// The unread atoms the output needs, each after the atoms it reads.
    evaluated: Vec<(AtomId, Definition)>,
    /// Per atom, its index in `evaluated` (`u32::MAX` if none).
    index: Vec<u32>,
    /// The positions of the shown unread atoms among the translation's
    /// shown symbols, ascending, each with its index in `evaluated`.
    shown: Vec<(usize, u32)>,
}

impl UnreadAtoms {
    /// The unread atoms of `program`.
    pub fn find(program: &GroundProgram) -> UnreadAtoms {
        let pinned = pinned(program);
        if pinned.iter().all(|&p| p) {
            return UnreadAtoms::default();
        }
        let graph = Reads::new(program);
        let mut core = graph.closure(pinned, |_| true);
        // Atoms on a cycle among themselves may have several values (`a :-
        // not b. b :- not a.`): the search decides them, and what they read.
        let components = graph.components(&core);
        let cyclic: Vec<u32> = (0..core.len() as u32)
            .filter(|&a| !core[a as usize] && components.cyclic(a, &graph))
            .collect();
        if !cyclic.is_empty() {
            for &a in &cyclic {
                core[a as usize] = true;
            }
            core = graph.closure(core, |_| true);
        }
        let unread: Vec<bool> = core.iter().map(|&c| !c).collect();
        let evaluated = needed(program, &graph, &unread, &components.component);
        let mut index = vec![
            u32::MAX;
            if evaluated.is_empty() {
                0
            } else {
                unread.len()
            }
        ];
        for (i, (atom, _)) in evaluated.iter().enumerate() {
            index[atom.index()] = i as u32;
        }
        UnreadAtoms {
            unread,
            evaluated,
            index,
            shown: Vec::new(),
        }
    }

    /// Whether nothing the search needs reads `atom`: it gets no clause.
    pub fn is_unread(&self, atom: AtomId) -> bool {
        self.unread.get(atom.index()).copied().unwrap_or(false)
    }

    /// How many atoms are unread.
    pub fn count(&self) -> usize {
        self.unread.iter().filter(|&&u| u).count()
    }

    /// Whether a model's answer set needs evaluating.
    pub fn is_empty(&self) -> bool {
        self.evaluated.is_empty()
    }

    /// Finds the shown unread atoms among `shown`, the translation's shown
    /// symbols (an unread atom's symbol is shown by it alone).
    pub(super) fn locate_shown(&mut self, program: &GroundProgram, shown: &[(SymId, Cond)]) {
        let by_symbol: FxHashMap<SymId, u32> = (self.evaluated.iter().enumerate())
            .filter(|(_, (atom, _))| program.atoms[atom.index()].shown)
            .map(|(i, (atom, _))| (program.symbol(*atom), i as u32))
            .collect();
        self.shown = (shown.iter().enumerate())
            .filter_map(|(position, (symbol, _))| Some((position, *by_symbol.get(symbol)?)))
            .collect();
    }

    /// The positions among the translation's shown symbols of the unread
    /// atoms true in the answer set of a model (`values`, by variable),
    /// ascending.
    pub fn shown_true(&self, atom_vars: &[Var], values: &[bool]) -> Vec<usize> {
        let mut truths: Vec<bool> = Vec::with_capacity(self.evaluated.len());
        for (_, definition) in &self.evaluated {
            let value = |a: &AtomId| match self.index.get(a.index()) {
                Some(&i) if i != u32::MAX => truths[i as usize],
                _ => values[atom_vars[a.index()].index()],
            };
            let holds = |body: &Body| body.pos().iter().all(value) && !body.neg().iter().any(value);
            let truth = match definition {
                Definition::Rules(bodies) => bodies.iter().any(holds),
                Definition::Aggregate(aggregate) => (aggregate.parts().into_iter())
                    .all(|part| aggregate.part_holds(part, |_, e| e.conditions.iter().any(holds))),
            };
            truths.push(truth);
        }
        (self.shown.iter())
            .filter(|&&(_, i)| truths[i as usize])
            .map(|&(position, _)| position)
            .collect()
    }
}

/// Who reads whom: each atom's normal rules' bodies and aggregate's
/// conditions, as a graph from the atom to the atoms they hold.
struct Reads {
    offsets: Vec<usize>,
    targets: Vec<u32>,
}

impl Reads {
    /// Counted first and filled then: a program has as many reads as
    /// body literals, and most have no unread atom to find.
    fn new(program: &GroundProgram) -> Reads {
        let n = program.atoms.len();
        let mut offsets = vec![0usize; n + 1];
        Reads::each_read(program, |head, _| offsets[head.index() + 1] += 1);
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut targets = vec![0u32; offsets[n]];
        Reads::each_read(program, |head, read| {
            targets[next[head.index()]] = read.0;
            next[head.index()] += 1;
        });
        Reads { offsets, targets }
    }

    /// Calls `read(atom, read)` for each atom of each normal rule's body
    /// and of each aggregate's conditions, in the same order every time.
    fn each_read(program: &GroundProgram, mut read: impl FnMut(AtomId, AtomId)) {
        let mut body = |head: AtomId, body: &Body| {
            body.pos()
                .iter()
                .chain(body.neg())
                .for_each(|&a| read(head, a));
        };
        for rule in &program.rules {
            if let Head::Atom(head) = rule.head {
                body(head, &rule.body);
            }
        }
        for aggregate in &program.aggregates {
            let conditions = aggregate.elements.iter().flat_map(|e| &e.conditions);
            conditions.for_each(|c| body(aggregate.atom, c));
        }
    }

    fn read_by(&self, atom: u32) -> &[u32] {
        &self.targets[self.offsets[atom as usize]..self.offsets[atom as usize + 1]]
    }

    /// `seeds` and every atom they read, transitively, through the atoms
    /// `within` admits.
    fn closure(&self, mut seeds: Vec<bool>, within: impl Fn(u32) -> bool) -> Vec<bool> {
        let mut stack: Vec<u32> = (0..seeds.len() as u32)
            .filter(|&a| seeds[a as usize])
            .collect();
        while let Some(atom) = stack.pop() {
            for &read in self.read_by(atom) {
                if within(read) && !std::mem::replace(&mut seeds[read as usize], true) {
                    stack.push(read);
                }
            }
        }
        seeds
    }

    /// The components of the reads among atoms outside `core`.
    fn components(&self, core: &[bool]) -> Components {
        let mut offsets = Vec::with_capacity(core.len() + 1);
        let mut targets = Vec::new();
        offsets.push(0);
        for atom in 0..core.len() as u32 {
            if !core[atom as usize] {
                targets.extend(self.read_by(atom).iter().filter(|&&r| !core[r as usize]));
            }
            offsets.push(targets.len());
        }
        let components = crate::graph::tarjan(core.len(), &offsets, &targets);
        Components {
            size: components.sizes(),
            component: components.component,
        }
    }
}

/// The atoms the search needs in their own right: facts, heads of
/// choices and disjunctions, and whatever constraints, choices,
/// disjunctions, the objective, show terms, `#project` and `#edge`
/// read (and an atom whose symbol a show term shows too).
fn pinned(program: &GroundProgram) -> Vec<bool> {
    let mut pinned: Vec<bool> = program.atoms.iter().map(|a| a.fact).collect();
    let pin_body = |pinned: &mut Vec<bool>, body: &Body| {
        for a in body.pos().iter().chain(body.neg()) {
            pinned[a.index()] = true;
        }
    };
    for rule in &program.rules {
        if matches!(rule.head, Head::Atom(_)) {
            continue;
        }
        pin_body(&mut pinned, &rule.body);
        rule.head.for_each_atom(|a| pinned[a.index()] = true);
        if let Head::Choice(choice) = &rule.head {
            for condition in choice.elements.iter().flat_map(|e| &e.conditions) {
                pin_body(&mut pinned, condition);
            }
        }
    }
    for element in program.costs.iter().flat_map(|level| &level.elements) {
        element
            .conditions
            .iter()
            .for_each(|c| pin_body(&mut pinned, c));
    }
    let terms: FxHashSet<_> = program.show_terms.iter().map(|t| t.term).collect();
    for term in &program.show_terms {
        pin_body(&mut pinned, &term.body);
    }
    for (pinned, atom) in pinned.iter_mut().zip(&program.atoms) {
        *pinned |= terms.contains(&atom.symbol);
    }
    let projected = program.projection.iter().flatten();
    for &a in projected.chain(program.edges.iter().map(|(_, _, a)| a)) {
        pinned[a.index()] = true;
    }
    pinned
}

/// Components of the reads, numbered so that an atom's reads are in
/// components numbered no higher.
struct Components {
    component: Vec<u32>,
    size: Vec<usize>,
}

impl Components {
    /// Whether `atom` is on a cycle of reads (itself among its reads).
    fn cyclic(&self, atom: u32, graph: &Reads) -> bool {
        self.size[self.component[atom as usize] as usize] > 1 || graph.read_by(atom).contains(&atom)
    }
}

/// The unread atoms that are shown, and those they read, each with its
/// definition, ordered by `component` (an atom after those it reads).
fn needed(
    program: &GroundProgram,
    graph: &Reads,
    unread: &[bool],
    component: &[u32],
) -> Vec<(AtomId, Definition)> {
    let shown = (program.atoms.iter().zip(unread)).map(|(atom, &u)| u && atom.shown);
    let needed = graph.closure(shown.collect(), |read| unread[read as usize]);
    let mut bodies: Vec<Vec<Body>> = vec![Vec::new(); unread.len()];
    for rule in &program.rules {
        if let Head::Atom(head) = rule.head
            && needed[head.index()]
        {
            bodies[head.index()].push(rule.body.clone());
        }
    }
    let mut evaluated: Vec<(AtomId, Definition)> = (0..unread.len())
        .filter(|&a| needed[a])
        .map(|a| {
            (
                AtomId(a as u32),
                Definition::Rules(std::mem::take(&mut bodies[a])),
            )
        })
        .collect();
    for aggregate in &program.aggregates {
        if needed[aggregate.atom.index()] {
            // In the order of atoms until sorted below.
            let at = evaluated.binary_search_by_key(&aggregate.atom, |&(a, _)| a);
            evaluated[at.expect("needed")].1 = Definition::Aggregate(aggregate.clone());
        }
    }
    evaluated.sort_by_key(|&(atom, _)| (component[atom.index()], atom));
    evaluated
}
