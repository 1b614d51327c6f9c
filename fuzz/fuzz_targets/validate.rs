//! The report validator on arbitrary bytes: it never panics, and whatever it accepts parses as
//! a `Report` and survives a serialize/validate round trip.
#![no_main]

use hygiene::report::Report;
use hygiene::validate::{validate_bytes, validate_report};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let violations = validate_bytes(data);
    for v in &violations {
        // Every violation names a rule and a pointer that is empty or starts with `/`.
        assert!(!v.rule.is_empty());
        assert!(v.pointer.is_empty() || v.pointer.starts_with('/'));
    }
    if violations.is_empty() {
        let report: Report = serde_json::from_slice(data).expect("accepted but does not parse");
        assert!(validate_report(&report).is_empty());
        let again = serde_json::to_vec(&report).expect("a report serializes");
        assert!(
            validate_bytes(&again).is_empty(),
            "accepted, but its own serialization is rejected"
        );
    }
});
