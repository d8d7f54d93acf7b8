//! The command line: the only module that does I/O.
