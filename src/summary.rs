//! TODO: summary
