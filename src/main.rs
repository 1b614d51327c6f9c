//! The `hygiene` binary: a thin shell over the library.
fn main() {
    std::process::exit(hygiene::cli::main());
}
