pub fn api() {}
