pub fn sso() {}
