//! The compiled rules each rewriting pass leaves, one small program per
//! behaviour (`print::compiled`: variables as `V0`, `V1`, ..).

mod unpool {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        body_atom: "p(X) :- q(X;X+1).";
        head_atom: "p(1;2+1).";
        head_atom_arguments: "p(f(1;2),(3;X)) :- q(X).";
        comparison: "a(X) :- X = (1;2), q(X).";
        aggregate_element_terms: "a :- #sum{ X+1,(1;2) : q(X) } > 1.";
        aggregate_element_condition: "a :- #count{ X : q(X;X*2) } > 1.";
        aggregate_guard: "a :- (1;2) < #count{ X : q(X) }.";
        choice_element: "{ p(X;X+1) : q(X) }.";
        choice_element_condition: "{ p(X) : q(X;X-1) }.";
        choice_guard: "(1;2) { p(1) }.";
        show_term: "#show (X;X+1) : q(X).";
        conditional_literal: "a :- p(X;X+1) : q(X).";
        conditional_literal_condition: "a :- p(X) : q(X;X+2).";
        disjunct_condition: "p(X) : q(X;X+1) :- r.";
        minimize_element: "#minimize { X+1 : q(X;X+2) }.";
        interval_bound: "p(1..(2;3)).";
        pooled_chain: "p((1;2)+1+1).";
    }
}

mod heads {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        negated_disjunct: "a | not b :- c.";
        double_negated_disjunct: "a | not not b :- c.";
        negated_conditional_disjunct: "a | not p(X) : q(X) :- c.";
        false_disjunct: "a | #false :- b.";
        true_disjunct: "a | #true :- b.";
        conditional_true: "a | #true : q :- b.";
        comparison: "a | X > 1 :- q(X).";
        comparison_alone: "X > Y+1 :- q(X), r(Y).";
        disjunction_arithmetic: "p(X+1) | p(X*2) :- q(X).";
        conditional_disjunct_interval: "p(1..2) : q :- r.";
        conditional_disjunct_arithmetic: "p(X+1) : q(X*2) :- r.";
        head_arithmetic: "p(X*2,X\\3) :- q(X).";
        head_aggregate_sum: "#sum{ X*2,X : p(X) : q(X) } >= 2 :- r.";
        head_aggregate_count: "#count{ X : p(X+1) : q(X) } = 1.";
        head_aggregate_negated_element: "#count{ 1 : not a; 2 : b } >= 1.";
        choice_negated_element: "1 { a; not b } 1.";
        choice_unequal_bound: "{ p(X) : q(X) } != 1.";
        choice_arithmetic: "1 { p(X+1) : q(X*2) } Y :- r(Y).";
        choice_guard_arithmetic: "Y+1 { p(1); p(2) } :- r(Y).";
    }
}

mod conditional {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        body: "a :- p(X) : q(X).";
        literal_arithmetic: "a :- p(X+1) : q(X).";
        condition_arithmetic: "a :- p(X) : q(X-1).";
        negated: "a :- not p(X) : q(X).";
        double_negated: "a :- not not p(X) : q(X).";
        literal_binds: "a :- p(X,Y) : q(X).";
        literal_interval: "a :- p(1..2) : q.";
        comparison: "a :- X > 1 : q(X).";
        global_variable: "a(Y) :- r(Y), p(X,Y) : q(X).";
        undefined_literal: "a :- p(f(X)+1) : r(X).";
        disjunct_pool: "p(X;X+1) : q(X) :- r.";
        negated_disjunct: "not p(X) : q(X) :- r.";
    }
}

mod anonymous {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        negative_literal: "a :- q(X), not p(X,_).";
        captured_arithmetic: "a :- not p(_,X+1), q(X).";
        strong_negation: "a :- not -p(_).";
        positive: "a :- p(_), q(_,_).";
        positive_alone: "a(X) :- p(X,_).";
        positive_beside_comparison: "a(X) :- p(X,_), X > 1.";
        positive_beside_negative: "a(X) :- p(X+1,f(_)), not q(X).";
        aggregate_condition: "a :- #count{ X : q(X), not p(X,_) } > 0.";
        conditional_literal: "a :- not p(X,_) : q(X).";
        choice_condition: "{ a(X) : q(X), not p(X,_) }.";
        projected_statement: "#project p(_,X) : q(X).";
    }
}

mod arithmetic {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        separated_from_atom: "p(D) :- r(D), q(D-J,J).";
        kept_in_atom: "p(X) :- q(X), r(X+1).";
        linear: "p(2*X+1) :- q(X).";
        unary_minus: "p(X) :- q(-X).";
        aggregate_condition: "a :- #count{ J : q(D-J,J), r(D) } > 0.";
        aggregate_element: "a :- #sum{ X*2,X : q(X) } > 3.";
        aggregate_guard: "a(Y) :- r(Y), #count{ X : q(X) } > Y+1.";
        assignment: "s(N) :- N = #count{ X : q(X) }.";
        assignment_arithmetic: "s(C) :- C+1 = #min{ X : q(X) }.";
        choice_condition: "{ p(J) : q(D-J,J) } :- r(D).";
        show_term: "#show X*2 : q(X).";
        minimize_element: "#minimize { X*2@1,X : q(X) }.";
        weak_constraint: ":~ q(X). [X+1@X-1,X]";
        interval_arithmetic: "p(X+1..X+2) :- q(X).";
        interval_constant: "p(1..3*2).";
        undefined_in_body: "p(X) :- q(X), r(f(X)+1).";
        undefined_in_element: "a :- #sum{ f(X)+1 : q(X) } > 0.";
        undefined_division: "p(1/0).";
        undefined_head: "p(a+1) :- q.";
    }
}

mod symmetry {
    use crate::ground::print::{compiled, snapshot_cases};

    snapshot_cases! { compiled;
        row: ":- p(R,C,V), p(R,C2,V), C != C2.";
        normal_head: "q(T) :- at(A,T), at(B,T), A != B.";
        three_swapped: ":- at(A,X,Y), at(B,X2,Y2), A != B, X == X2, Y2 == Y.";
        negated: ":- p(X), p(Y), not q(X), not q(Y), X != Y.";
        linear_terms: ":- p(X+1), p(Y+1), X != Y.";
        all_different: ":- p(A), p(B), p(C), A != B, B != C, A != C.";
        directed_edge: ":- edge(X,Y), colour(X,C), colour(Y,C), X != Y.";
        head_changes: "adj(X,Y) :- p(X), p(Y), X != Y.";
        one_sided_atom: ":- p(X), p(Y), q(X), X != Y.";
        one_sided_comparison: ":- p(X), p(Y), X != Y, X < 3.";
        one_atom: ":- p(X,Y), X != Y.";
        aggregate: ":- p(X), p(Y), X != Y, #count{ Z : r(Z) } > 1.";
        choice: "{ q(X) } :- p(X), p(Y), X != Y.";
    }
}
