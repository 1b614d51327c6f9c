//! TODO: scan
