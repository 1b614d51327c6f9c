//! TODO: schema
