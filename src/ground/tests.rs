//! The compiled rules lowering and the safety check leave, one small
//! program per behaviour (`print::compiled`: variables as `V0`, `V1`, ..).
//! The rewriting passes have theirs in `rewrite/tests.rs`, instantiation
//! in `instantiate/tests.rs`.

mod lower {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        variables_numbered: "p(X,Y) :- q(X), r(Y,X).";
        element_variables: "a(Y) :- r(Y), #count{ X : q(X,Y) } > 1.";
        element_variables_apart: "a :- #count{ X : q(X) } > 1, #sum{ X : r(X) } > 2.";
        guard_read_by_earlier_element: "a(Y) :- #count{ X : p(X,Z) } = Y, #count{ W : p(W,W) } = Z.";
        choice_element_variables: "{ p(X,Y) : q(X) } :- r(Y).";
        constant: "#const n = 3. p(n+1) :- q(n).";
        interval_binding: "p(X) :- X = 1..3.";
        interval_in_atom: "p(X) :- q(1..X).";
        interval_in_head: "p(1..X) :- q(X).";
        interval_in_aggregate_element: "a :- #count{ X : q(X..X+1) } > 1.";
        interval_in_show_term: "#show 1..X : q(X).";
        literal_set: "a :- { p(1); 2 > 1; not q } >= 1.";
        literal_set_interval: "a :- { X = 1..2 } >= 1.";
        double_negation: "a :- not not b.";
        strong_negation: "-p(X) :- q(X), not -r(X).";
        boolean_literals: "a :- #true, not #false.";
        external: "#external p(X) : q(X).";
        edge: "#edge (X,X+1) : q(X).";
        fact: "p(1).";
    }
}

mod safety {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        head_variable: "p(X) :- q(Y).";
        negative_literal: "a :- not p(X).";
        aggregate_element: "a :- #count{ X : q(Y) } > 0.";
        aggregate_guard: "a :- #count{ X : q(X) } > Y.";
        assigned_only_by_element: "a(C) :- C = #count{ X : q(X), r(C) }.";
        bound_by_equality: "p(X) :- q(Y), X = Y+1.";
        not_invertible: "p(X) :- q(Y), Y = X*X.";
        bound_by_comparisons: "p(X) :- X > 0, X < 3.";
        bound_on_one_side: "p(X) :- X > 0.";
        anonymous_in_strong_negation: "a :- not -p(_).";
        choice_element: "{ p(X) : q(Y) }.";
        conditional_literal: "a :- p(X) : q(Y).";
        show_term: "#show X : q(Y).";
        minimize_element: "#minimize { X : q(Y) }.";
        several_places: "p(X) :- #count{ Y : q(Z) } > 0.";
        assigned_by_each_other: "a(Z,Y) :- #count{ X : p(X,Y) } = Z, #count{ W : p(W,Z) } = Y.";
    }
}
