pub const SESSION_TTL_SECS: u64 = 3600;
