//! Ground program to CNF.
