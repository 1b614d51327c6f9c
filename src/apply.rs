//! TODO: apply
