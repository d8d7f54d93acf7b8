//! The ground program instantiation makes, one small program per step and
//! behaviour (`print::ground`: clingo's `--text` form, then the
//! diagnostics), the values a `#min`/`#max` assignment may take, the
//! constraints whose instances need no lookup, and a grounding stopped
//! before its end.

mod join {
    use crate::ground::print::{ground, snapshot_cases};

    snapshot_cases! { ground;
        comparison_filter: "q(1..3). p(X) :- q(X), X > 1.";
        recursion: "e(1,2). e(2,3). e(3,1). path(X,Y) :- e(X,Y). path(X,Z) :- path(X,Y), e(Y,Z).";
        interval_narrowed: "h(X) :- X = 1..1000000, X < 3.";
        interval_narrowed_both_sides: "h(X) :- X = 1..1000000, X > 2, X <= 4.";
        comparison_chain: "h :- 1 < 2..5 < 4.";
        arithmetic_match: "q(3,1). q(5,2). r(4). r(7). p(D) :- r(D), q(D-J,J).";
        linear_match: "q(1..5). p(X) :- q(2*X+1).";
        anonymous_once: "e(1,2). e(1,3). e(2,3). s(X) :- e(X,_).";
        negation_open: "{ q(1..2) }. p(X) :- X = 1..3, not q(X).";
        negation_on_fact: "q(1). p(X) :- X = 1..2, not q(X).";
        double_negation: "{ q }. p :- not not q.";
    }
}

mod aggregates {
    use crate::ground::print::{ground, snapshot_cases};

    snapshot_cases! { ground;
        undecided_sum: "{ q(1..3) }. a :- #sum{ X : q(X) } >= 4.";
        decided_by_facts: "q(1..3). a :- #count{ X : q(X) } = 3.";
        never_holds: "q(1..3). a :- #count{ X : q(X) } > 3.";
        assignment: "{ q(1..2) }. s(N) :- N = #count{ X : q(X) }.";
        min_max: "{ q(1..3) }. lo(N) :- N = #min{ X : q(X) }. hi(N) :- N = #max{ X : q(X) }.";
        element_arithmetic: "{ q(1..3) }. a :- #sum{ X*2,X : q(X) } > 6.";
        condition_arithmetic: "{ q(1..3) }. r(2..4). a :- #count{ X : q(X), r(X+1) } >= 2.";
        equal_tuples_once: "{ q(1..2) }. a :- #sum{ 1 : q(X) } >= 2.";
        negated: "{ q(1..2) }. a :- not #count{ X : q(X) } > 1.";
        head_aggregate: "#sum{ X,X : p(X) : X = 1..3 } = 3.";
    }
}

mod possible_values {
    use crate::ground::instantiate::aggregates::GroundAggregate;
    use crate::ground::program::{AtomId, Body};
    use crate::symbols::SymbolTable;
    use crate::syntax::ast::AggregateFunction;

    /// The values `possible_values` gives for `function` over elements of
    /// weights 1 (uncertain), 3 (certain) and 5 (uncertain), or with all
    /// three uncertain.
    fn values(function: AggregateFunction, three_certain: bool) -> Vec<String> {
        let mut symbols = SymbolTable::default();
        let uncertain = || vec![Body::new(vec![AtomId(0)], vec![])];
        let three = match three_certain {
            true => vec![Body::default()],
            false => uncertain(),
        };
        let aggregate = GroundAggregate {
            function,
            elements: vec![
                (symbols.number(1), uncertain()),
                (symbols.number(3), three),
                (symbols.number(5), uncertain()),
            ],
        };
        let mut values: Vec<String> = (aggregate.possible_values(&mut symbols).into_iter())
            .map(|value| symbols.display(value).to_string())
            .collect();
        values.sort();
        values
    }

    /// A certain element bounds a `#min` from above and a `#max` from
    /// below, and rules out the empty set's value.
    #[test]
    fn certain_elements_bound_the_values_of_min_and_max() {
        assert_eq!(values(AggregateFunction::Min, true), ["1", "3"]);
        assert_eq!(values(AggregateFunction::Max, true), ["3", "5"]);
        assert_eq!(
            values(AggregateFunction::Min, false),
            ["#sup", "1", "3", "5"]
        );
        assert_eq!(
            values(AggregateFunction::Max, false),
            ["#inf", "1", "3", "5"]
        );
    }
}

mod conditionals {
    use crate::ground::print::{ground, snapshot_cases};

    snapshot_cases! { ground;
        body: "{ q(1..2) }. { p(1..2) }. a :- p(X) : q(X).";
        literal_arithmetic: "{ q(1..2) }. { p(2..3) }. a :- p(X+1) : q(X).";
        certain_condition: "q(1..2). { p(1..2) }. a :- p(X) : q(X).";
        empty_condition: "a :- p(X) : q(X).";
        negated_literal: "{ q(1..2) }. { p(1..2) }. a :- not p(X) : q(X).";
        recursive_condition: "{ q }. a :- b : c. c :- a, q.";
        disjunct: "r. { q(1..2) }. p(X) : q(X) :- r.";
        disjunct_interval: "r. { q }. p(1..2) : q :- r.";
    }
}

mod instances {
    use crate::ground::print::{ground, snapshot_cases};

    snapshot_cases! { ground;
        facts_dropped: "q(1). { r }. p :- q(1), not r.";
        choice_bounds: "1 { p(1..3) } 2.";
        choice_element_condition: "q(1..2). { p(X*2) : q(X) }.";
        disjunction: "q(1..2). p(X) | p(X+2) :- q(X).";
        show_term: "q(1..2). #show X*2 : q(X).";
        minimize: "{ q(1..2) }. #minimize { X*3@1,X : q(X) }.";
        head_arithmetic: "q(1..2). p(X*X,X\\2) :- q(X).";
        constraint: "{ q(1..2) }. :- q(1), q(2).";
        external: "#external p(1..2).";
        duplicate_rules: "{ q }. a :- q. a :- q, q.";
    }
}

mod distinct_instances {
    use crate::diagnostics::FileId;
    use crate::ground::print::compiled_rules;
    use crate::ground::program::Head;
    use crate::syntax::parse_program;

    /// `CRule::distinct_instances` of the one rule of `text`.
    fn distinct(text: &str) -> Option<(usize, usize)> {
        let rules = compiled_rules(text);
        assert_eq!(rules.len(), 1, "{text}");
        rules[0].distinct_instances()
    }

    /// Which constraints are known to have instances of pairwise different
    /// bodies: those whose atoms determine every variable, with two
    /// literals of one predicate only where a strict comparison orders
    /// them.
    #[test]
    fn constraints_whose_instances_differ() {
        assert_eq!(distinct(":- v(X), v(Y), X < Y."), Some((2, 0)));
        assert_eq!(distinct(":- e(X,Y), e(Y,X), X > Y."), Some((2, 0)));
        assert_eq!(distinct(":- v(X), not w(X)."), Some((1, 1)));
        assert_eq!(distinct(":- v(X), w(f(Y,X)), not u(Y)."), Some((2, 1)));
        // The compiler orders the two sides of a symmetric `!=` itself.
        assert_eq!(distinct(":- v(X), v(Y), X != Y."), Some((2, 0)));
        // A swap of the two atoms is another instance of the same body.
        assert_eq!(distinct(":- v(X), v(Y), X + Y = 5."), None);
        assert_eq!(distinct(":- v(X), v(Y), X <= Y."), None);
        // One comparison orders both pairs.
        let two_pairs = ":- v(X), not w(X,Y), not w(Y,X), v(Y), X < Y.";
        assert_eq!(distinct(two_pairs), Some((2, 2)));
        assert_eq!(distinct(":- v(X), v(Y), v(Z), X < Y, Y < Z."), None);
        // Variables the atoms do not determine, or that are projected.
        assert_eq!(distinct(":- v(X), Y = 1..3, X < Y."), None);
        assert_eq!(distinct(":- v(X+1), w(X)."), Some((2, 0)));
        assert_eq!(distinct(":- v(X+1), w(X*2)."), None);
        assert_eq!(distinct(":- v(X), w(Y)."), None);
        assert_eq!(distinct(":- v(X), #count{ Y : w(Y) } > X."), None);
        assert_eq!(distinct("a :- v(X), w(X)."), None);
    }

    /// The constraints `text` grounds to, and how many of them differ.
    fn constraints(text: &str) -> (usize, usize) {
        let (statements, errors) = parse_program(text, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        let (program, _) = crate::ground::ground(&statements, &[]);
        let mut bodies: Vec<_> = (program.expect("ground").rules.into_iter())
            .filter(|rule| rule.head == Head::Constraint)
            .map(|rule| rule.body)
            .collect();
        let all = bodies.len();
        bodies.sort();
        bodies.dedup();
        (all, bodies.len())
    }

    /// Instances added without a lookup are still never repeated: those
    /// of a rule known to have distinct instances, and those that a fact
    /// took a literal out of, which are looked up (as are a symmetric
    /// rule's, a ground constraint that repeats one of them, and those of
    /// a rule that another rule's instances can repeat once facts are
    /// taken out of them, or that repeats the constraints of strong
    /// negation).
    #[test]
    fn no_instance_is_repeated() {
        assert_eq!(constraints("{ v(1..4) }. :- v(X), v(Y), X < Y."), (6, 6));
        assert_eq!(
            constraints("{ v(1..4) }. :- v(X), v(Y), X + Y = 5."),
            (2, 2)
        );
        assert_eq!(
            constraints("{ e(1..3,1..3) }. :- e(X,Y), e(Y,X), X < Y."),
            (3, 3)
        );
        let fact_taken_out = "{ v(1..3) }. w(1,2). { w(1,3); w(2,3) }.
            :- v(X), v(Y), w(X,Y), X < Y. :- v(1), v(2).";
        assert_eq!(constraints(fact_taken_out), (3, 3));
        let same_box = "{ p(1..2,1..2) }. box(1,1). box(2,1).
            :- p(R1,C), p(R2,C), R1 < R2.
            :- p(R1,C), p(R2,C), box(R1,B), box(R2,B), R1 < R2.";
        assert_eq!(constraints(same_box), (2, 2));
        // Grounding adds `:- p(X), -p(X).` itself.
        let consistent = "{ p(1..2); -p(1..2) }. :- p(X), -p(X).";
        assert_eq!(constraints(consistent), (2, 2));
    }
}

mod shared_elements {
    use crate::diagnostics::FileId;
    use crate::ground::program::element_lists;
    use crate::syntax::parse_program;
    use std::sync::Arc;

    /// An assignment is one aggregate per value, all over one list of
    /// elements: shared, not copied, through grounding and simplification
    /// (hakank's bus scheduling took 1.4 GB when each held a copy), and
    /// numbered alike.
    #[test]
    fn an_assignments_aggregates_share_their_elements() {
        let text = "item(1..40). { x(I) } :- item(I). a :- x(1).
            total(T) :- T = #count{ I : x(I) }. :- total(T), T > 30, a.
            half(S) :- S = #sum{ I : x(I), I < 20 }. :- half(S), S = 7.";
        let (statements, errors) = parse_program(text, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        let (program, _) = crate::ground::ground(&statements, &[]);
        let aggregates = program.expect("ground").aggregates;
        let lists = element_lists(&aggregates);
        let mut by_list: Vec<Vec<usize>> = vec![Vec::new(); aggregates.len()];
        for (k, &list) in lists.iter().enumerate() {
            by_list[list].push(k);
        }
        let families: Vec<&Vec<usize>> = by_list.iter().filter(|k| k.len() > 1).collect();
        // The count's 41 values, and the sum's (the constraints fold
        // some into ranges over the same elements).
        assert_eq!(families.len(), 2, "{lists:?}");
        assert!(families.iter().any(|family| family.len() >= 41));
        for family in families {
            let first = &aggregates[family[0]].elements;
            assert!((family.iter()).all(|&k| Arc::ptr_eq(&aggregates[k].elements, first)));
        }
    }
}

mod stop {
    use crate::diagnostics::FileId;
    use crate::ground::{Grounding, Parts};
    use crate::progress::Counters;
    use crate::syntax::parse_program;
    use std::sync::atomic::AtomicBool;

    /// The atoms `text` grounds to, with the stop flag at `stopped`.
    fn atoms_ground(text: &str, stopped: bool) -> u64 {
        let (statements, errors) = parse_program(text, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        let counters = Counters::default();
        let stop = AtomicBool::new(stopped);
        let mut grounding = Grounding::single(&[], &counters).stop_at(&stop);
        assert!(grounding.ground_call(&statements, &Parts::base()).is_ok());
        assert_eq!(grounding.stopped(), stopped);
        let atoms = counters.snapshot().atoms;
        // Nor does a stopped grounding give a program.
        let mut whole = Grounding::single(&[], &counters).stop_at(&stop);
        let (program, _) = whole.ground(&statements, &Parts::base());
        assert_eq!(program.is_none(), stopped);
        atoms
    }

    /// A stopped grounding makes no join step: not the facts' interval,
    /// not the rule's pairs, not the recursion's rounds.
    #[test]
    fn a_stopped_grounding_ends_before_its_first_join_step() {
        let text = "n(1..50). p(X,Y) :- n(X), n(Y). r(X+1) :- r(X), X < 1000. r(0).";
        assert_eq!(atoms_ground(text, false), 50 + 2500 + 1001);
        assert_eq!(atoms_ground(text, true), 0);
    }

    /// Nor does it plan a join: planning builds the indexes of the join's
    /// steps, which on the relations of a runaway grounding took seconds
    /// after the stop (a corpus mutant, `on(D,P,T+1) :- on(D,P,T), not
    /// moves(T).` without `moves`, ran 60% over its time limit).
    #[test]
    fn a_stopped_grounding_builds_no_index() {
        let text = "n(1). n(2). m(1,2). m(2,3). q(X,Y) :- n(X), m(X,Y). :- q(X,Y), m(Y,X).";
        let (statements, errors) = parse_program(text, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        for stopped in [false, true] {
            let counters = Counters::default();
            let stop = AtomicBool::new(stopped);
            let mut grounding = Grounding::single(&[], &counters).stop_at(&stop);
            assert!(grounding.ground_call(&statements, &Parts::base()).is_ok());
            let relations = &grounding.run.as_ref().expect("grounded").grounder.relations;
            let indexes: usize = relations.iter().map(|r| r.indexes.len()).sum();
            assert_eq!(indexes == 0, stopped, "{indexes} indexes");
        }
    }
}
