//! The order a batch plans its entries in, so that one `apply --tier auto` takes every entry
//! that can apply together.
//!
//! The planner refuses an anchored edit of lines at or below a line an earlier entry of the
//! batch changed in that file (line numbers may have moved). So edits of one file run bottom-up,
//! and a `dedupe` must run before any edit at or above the end of the kept copy it relies on in
//! another file (otherwise fixing a renamed path above a duplicated block refuses the dedupe of
//! the block's copy). [`batch_order`] is a topological order of those two constraints that
//! keeps the given order wherever nothing constrains it.

use crate::report::{Anchor, EditKind, ExactEdit};

/// The lines of its own file an edit changes: its line anchor, line 1 for a frontmatter insert
/// (which shifts every line below), `None` for a whole-file op.
fn changes(edit: Option<&ExactEdit>) -> Option<(u32, u32)> {
    let x = edit?;
    match (x.kind, x.anchor) {
        (EditKind::InsertFrontmatter, _) => Some((1, 1)),
        (EditKind::Delete | EditKind::ExtractThenDelete, _) => None,
        (_, Some(Anchor::Lines(r))) => Some((r.start_line, r.end_line)),
        _ => None,
    }
}

/// The span of another file a dedupe relies on (its `canonical_ref`).
fn relies_on(edit: Option<&ExactEdit>) -> Option<(&str, u32, u32)> {
    let x = edit.filter(|x| x.kind == EditKind::Dedupe)?;
    let (path, range) = x.canonical_ref.as_deref()?.rsplit_once(':')?;
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    Some((path, a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// A planning order of `entries` (path and edit each): a topological order of the constraints
/// above, taking the earliest ready entry of the given order first. Where constraints conflict
/// (two edits that cannot both apply anyway) the given order decides.
///
/// ```
/// use hygiene::apply::order::batch_order;
/// use hygiene::report::ExactEdit;
/// let e = |kind: &str, a: u32, b: u32, cref: Option<&str>| -> ExactEdit {
///     serde_json::from_value(serde_json::json!({"kind": kind,
///         "anchor": {"start_line": a, "end_line": b}, "canonical_ref": cref})).unwrap()
/// };
/// let (r9, r3) = (e("replace-text", 9, 9, None), e("replace-text", 3, 3, None));
/// let d = e("dedupe", 5, 7, Some("CLAUDE.md:5-7"));
/// // Sorted by path, bottom-up: the dedupe of docs/a.md relies on CLAUDE.md:5-7, which the
/// // line-3 edit would move, so it goes before that edit (and after the line-9 one).
/// let order = batch_order(&[("CLAUDE.md", Some(&r9)), ("CLAUDE.md", Some(&r3)), ("docs/a.md", Some(&d))]);
/// assert_eq!(order, [0, 2, 1]);
/// ```
pub fn batch_order(entries: &[(&str, Option<&ExactEdit>)]) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::{BTreeSet, BinaryHeap, HashMap};
    let n = entries.len();
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    let mut edge = |a: usize, b: usize, after: &mut Vec<Vec<usize>>| {
        if a != b {
            after[a].push(b);
            indegree[b] += 1;
        }
    };
    // Edits of one file keep their given (bottom-up) order: a chain, so the whole constraint
    // set stays linear in size.
    let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (path, _)) in entries.iter().enumerate() {
        groups.entry(path).or_default().push(i);
    }
    for g in groups.values() {
        for w in g.windows(2) {
            edge(w[0], w[1], &mut after);
        }
    }
    // A dedupe precedes the first edit of its kept copy's file that starts at or above the end
    // of the kept span; the chain carries the constraint to every later edit of that file.
    let start = |i: usize| changes(entries[i].1).map_or(0, |(s, _)| s);
    for (d, (_, edit)) in entries.iter().enumerate() {
        let Some((kept, _, kept_end)) = relies_on(*edit) else {
            continue;
        };
        let Some(g) = groups.get(kept) else { continue };
        let mut pos = g.partition_point(|&b| start(b) > kept_end);
        if g.get(pos) == Some(&d) {
            pos += 1;
        }
        if let Some(&b) = g.get(pos) {
            edge(d, b, &mut after);
        }
    }
    // Kahn's algorithm, earliest ready entry of the given order first; where constraints
    // conflict (a cycle: edits that cannot all apply anyway), the given order decides.
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&i| indegree[i] == 0).map(Reverse).collect();
    let mut remaining: BTreeSet<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    loop {
        let next = loop {
            match ready.pop() {
                Some(Reverse(i)) if remaining.contains(&i) => break Some(i),
                Some(_) => continue,
                None => break remaining.first().copied(),
            }
        };
        let Some(next) = next else { break };
        remaining.remove(&next);
        order.push(next);
        for &b in &after[next] {
            indegree[b] = indegree[b].saturating_sub(1);
            if indegree[b] == 0 && remaining.contains(&b) {
                ready.push(Reverse(b));
            }
        }
    }
    order
}
