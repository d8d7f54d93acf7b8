//! CNF to answer sets.
