//! Checks a JSON value against the generated report schema.
//!
//! A small interpreter for exactly the JSON Schema vocabulary `schemars` emits for our types
//! (`type`, `properties`, `required`, `additionalProperties`, `const`, `enum`, `oneOf`, `anyOf`,
//! `allOf`, `if`/`then`, `$ref`, `items`, `minimum`, `maximum`, integer formats). Using the
//! generated schema itself, rather than hand-written checks, is what keeps `hygiene validate` and
//! `hygiene schema` one contract. Unknown keywords are ignored, as JSON Schema prescribes.
//! Every violation is reported with its JSON pointer, not just the first one.

use serde_json::{Map, Value};

/// A shape violation: JSON pointer and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// Where.
    pub pointer: String,
    /// What.
    pub message: String,
}

/// Validates `instance` against `root` (a schema with `$defs`).
pub fn check(root: &Value, instance: &Value) -> Vec<ShapeError> {
    let mut errors = Vec::new();
    Checker { root }.check(root, instance, "", &mut errors);
    errors
}

/// Escapes one JSON-pointer token (RFC 6901).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

struct Checker<'a> {
    root: &'a Value,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(ty: &str, v: &Value) -> bool {
    let actual = type_name(v);
    actual == ty || (ty == "number" && actual == "integer")
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

impl<'a> Checker<'a> {
    fn resolve(&self, reference: &str) -> Option<&'a Value> {
        let path = reference.strip_prefix('#')?;
        self.root.pointer(path)
    }

    fn valid(&self, schema: &Value, v: &Value) -> bool {
        let mut errs = Vec::new();
        self.check(schema, v, "", &mut errs);
        errs.is_empty()
    }

    fn check(&self, schema: &Value, v: &Value, ptr: &str, out: &mut Vec<ShapeError>) {
        let err = |out: &mut Vec<ShapeError>, message: String| {
            out.push(ShapeError {
                pointer: ptr.to_string(),
                message,
            })
        };
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return err(out, "no value is allowed here".into()),
            Value::Object(s) => s,
            _ => return,
        };
        if let Some(Value::String(r)) = s.get("$ref") {
            match self.resolve(r) {
                Some(target) => self.check(target, v, ptr, out),
                None => err(out, format!("schema reference {r} does not resolve")),
            }
        }
        if let Some(ty) = s.get("type") {
            let ok = match ty {
                Value::String(t) => type_matches(t, v),
                Value::Array(ts) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|t| type_matches(t, v)),
                _ => true,
            };
            if !ok {
                let want = match ty {
                    Value::Array(ts) => ts
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" or "),
                    other => other.as_str().unwrap_or("?").to_string(),
                };
                return err(out, format!("expected {want}, found {}", type_name(v)));
            }
        }
        if let Some(c) = s.get("const") {
            if c != v {
                return err(out, format!("must be {}, found {}", short(c), short(v)));
            }
        }
        if let Some(Value::Array(options)) = s.get("enum") {
            if !options.contains(v) {
                let names: Vec<String> = options.iter().map(short).collect();
                return err(
                    out,
                    format!("must be one of {}, found {}", names.join(", "), short(v)),
                );
            }
        }
        if let Value::Number(n) = v {
            if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), n.as_f64()) {
                if x < min {
                    err(out, format!("must be at least {min}, found {n}"));
                }
            }
            if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), n.as_f64()) {
                if x > max {
                    err(out, format!("must be at most {max}, found {n}"));
                }
            }
            if s.get("format").and_then(Value::as_str) == Some("uint32")
                && n.as_u64().is_none_or(|x| x > u32::MAX as u64)
            {
                err(
                    out,
                    format!("must be an integer from 0 to {}, found {n}", u32::MAX),
                );
            }
            if s.get("format").and_then(Value::as_str) == Some("uint64") && n.as_u64().is_none() {
                err(out, format!("must be a non-negative integer, found {n}"));
            }
        }
        if let (Some(Value::Object(props)), Value::Object(obj)) = (s.get("properties"), v) {
            for (k, sub) in props {
                if let Some(child) = obj.get(k) {
                    self.check(sub, child, &format!("{ptr}/{}", escape(k)), out);
                }
            }
        }
        if let (Some(Value::Array(req)), Value::Object(obj)) = (s.get("required"), v) {
            for k in req.iter().filter_map(Value::as_str) {
                if !obj.contains_key(k) {
                    err(out, format!("missing required field `{k}`"));
                }
            }
        }
        if let (Some(Value::Bool(false)), Value::Object(obj)) = (s.get("additionalProperties"), v) {
            let empty = Map::new();
            let props = s
                .get("properties")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            for k in obj.keys().filter(|k| !props.contains_key(*k)) {
                err(out, format!("unknown field `{k}`"));
            }
        }
        if let (Some(items), Value::Array(arr)) = (s.get("items"), v) {
            for (i, child) in arr.iter().enumerate() {
                self.check(items, child, &format!("{ptr}/{i}"), out);
            }
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            for sub in all {
                self.check(sub, v, ptr, out);
            }
        }
        if let Some(cond) = s.get("if") {
            if self.valid(cond, v) {
                if let Some(then) = s.get("then") {
                    self.check(then, v, ptr, out);
                }
            }
        }
        for (key, exactly_one) in [("oneOf", true), ("anyOf", false)] {
            if let Some(Value::Array(branches)) = s.get(key) {
                self.check_branches(branches, exactly_one, v, ptr, out);
            }
        }
    }

    /// `oneOf`/`anyOf`. When no branch matches, the message names the closest branch: for
    /// tagged objects the branch whose tag (`kind`, `class`) matches, for enums the legal words.
    fn check_branches(
        &self,
        branches: &[Value],
        exactly_one: bool,
        v: &Value,
        ptr: &str,
        out: &mut Vec<ShapeError>,
    ) {
        let matching = branches.iter().filter(|b| self.valid(b, v)).count();
        if matching == 1 || (!exactly_one && matching > 1) {
            return;
        }
        if matching > 1 {
            out.push(ShapeError {
                pointer: ptr.to_string(),
                message: "matches more than one alternative".into(),
            });
            return;
        }
        // Enum of string constants: list them.
        let consts: Vec<&Value> = branches
            .iter()
            .filter_map(|b| self.deref(b).get("const"))
            .collect();
        if consts.len() == branches.len() {
            let names: Vec<String> = consts.iter().map(|c| short(c)).collect();
            out.push(ShapeError {
                pointer: ptr.to_string(),
                message: format!("must be one of {}, found {}", names.join(", "), short(v)),
            });
            return;
        }
        // Tagged objects: find the tag property every branch fixes with a const.
        if let Value::Object(obj) = v {
            if let Some(tag) = self.tag_of(branches) {
                let tags: Vec<&Value> = branches
                    .iter()
                    .filter_map(|b| self.deref(b).pointer(&format!("/properties/{tag}/const")))
                    .collect();
                match obj.get(&tag) {
                    Some(val) => {
                        if let Some(b) = branches.iter().find(|b| {
                            self.deref(b).pointer(&format!("/properties/{tag}/const")) == Some(val)
                        }) {
                            return self.check(b, v, ptr, out);
                        }
                        let names: Vec<String> = tags.iter().map(|c| short(c)).collect();
                        out.push(ShapeError {
                            pointer: format!("{ptr}/{}", escape(&tag)),
                            message: format!(
                                "must be one of {}, found {}",
                                names.join(", "),
                                short(val)
                            ),
                        });
                    }
                    None => out.push(ShapeError {
                        pointer: ptr.to_string(),
                        message: format!("missing required field `{tag}`"),
                    }),
                }
                return;
            }
        }
        // Otherwise report the branch with the fewest errors (usually the intended one).
        let mut best: Option<Vec<ShapeError>> = None;
        for b in branches {
            let mut errs = Vec::new();
            self.check(b, v, ptr, &mut errs);
            if best.as_ref().is_none_or(|e| errs.len() < e.len()) {
                best = Some(errs);
            }
        }
        out.extend(best.unwrap_or_default());
    }

    fn deref(&self, schema: &'a Value) -> &'a Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) if schema.as_object().is_some_and(|o| o.len() <= 2) => {
                self.resolve(r).map(|t| self.deref(t)).unwrap_or(schema)
            }
            _ => schema,
        }
    }

    fn tag_of(&self, branches: &'a [Value]) -> Option<String> {
        let first = self
            .deref(branches.first()?)
            .get("properties")?
            .as_object()?;
        first
            .iter()
            .filter(|(_, p)| p.get("const").is_some())
            .map(|(k, _)| k.clone())
            .find(|k| {
                branches.iter().all(|b| {
                    self.deref(b)
                        .pointer(&format!("/properties/{k}/const"))
                        .is_some()
                })
            })
    }
}
