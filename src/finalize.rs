//! TODO: finalize
