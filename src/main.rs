//! The `hygiene` binary: a thin shell over the library.

/// The allocator (why: `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`: its position in `mimalloc.h` (v2), which the Rust
/// bindings do not name. Checked by the test below.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Freed pages go back to the system at once rather than 10 ms later: a scan frees its tree
    // before it loads the tokenizer, and the delay let both count towards the peak.
    // SAFETY: mi_option_set takes plain integers and may be called at any time, from any thread.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
    std::process::exit(hygiene::cli::main());
}

#[cfg(test)]
mod tests {
    /// The options from [`super::PURGE_DELAY`] on have the defaults mimalloc v2's `options.c`
    /// gives purge_delay and the five after it (10 ms, then 0, 0, 100, 32, 32): the position
    /// is that option's, and a release that moved it fails here, not silently.
    #[test]
    fn the_purge_delay_option_is_where_main_sets_it() {
        let defaults: Vec<i64> = (super::PURGE_DELAY..super::PURGE_DELAY + 6)
            // SAFETY: mi_option_get reads an option; nothing in this test binary sets them.
            .map(|o| unsafe { libmimalloc_sys::mi_option_get(o) } as i64)
            .collect();
        assert_eq!(defaults, [10, 0, 0, 100, 32, 32]);
    }
}
