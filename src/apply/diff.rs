//! A small unified line diff for `--dry-run`: common prefix and suffix are stripped, the middle
//! is aligned with a longest-common-subsequence table (edits here are a few contiguous spans,
//! so the middle is small), and hunks carry three lines of context like `diff -u`.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Equal(usize, usize),
    Del(usize),
    Ins(usize),
}

/// Largest LCS table (cells) before the middle is shown as a plain delete-then-insert.
const MAX_CELLS: usize = 4_000_000;

fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let mut p = 0;
    while p < a.len() && p < b.len() && a[p] == b[p] {
        p += 1;
    }
    let mut s = 0;
    while s < a.len() - p && s < b.len() - p && a[a.len() - 1 - s] == b[b.len() - 1 - s] {
        s += 1;
    }
    let (ma, mb) = (&a[p..a.len() - s], &b[p..b.len() - s]);
    let mut ops: Vec<Op> = (0..p).map(|i| Op::Equal(i, i)).collect();
    let (la, lb) = (ma.len(), mb.len());
    if la.saturating_mul(lb) <= MAX_CELLS {
        // lcs[i][j] = LCS length of ma[i..] and mb[j..]
        let w = lb + 1;
        let mut lcs = vec![0u32; (la + 1) * w];
        for i in (0..la).rev() {
            for j in (0..lb).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < la || j < lb {
            if i < la && j < lb && ma[i] == mb[j] {
                ops.push(Op::Equal(p + i, p + j));
                i += 1;
                j += 1;
            } else if j < lb && (i == la || lcs[i * w + j + 1] > lcs[(i + 1) * w + j]) {
                ops.push(Op::Ins(p + j));
                j += 1;
            } else {
                ops.push(Op::Del(p + i));
                i += 1;
            }
        }
    } else {
        ops.extend((0..la).map(|i| Op::Del(p + i)));
        ops.extend((0..lb).map(|j| Op::Ins(p + j)));
    }
    ops.extend((0..s).map(|k| Op::Equal(a.len() - s + k, b.len() - s + k)));
    ops
}

fn push_line(out: &mut String, mark: char, line: &str) {
    out.push(mark);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// The unified diff turning `old` into `new`, labelled `--- old_label` / `+++ new_label`;
/// empty when they are equal.
///
/// ```
/// let d = hygiene::apply::diff::unified("a/x", "b/x", "1\n2\n3\n", "1\n3\n");
/// assert_eq!(d, "--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n 1\n-2\n 3\n");
/// ```
pub fn unified(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    const CONTEXT: usize = 3;
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    let changes: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o, Op::Equal(..)))
        .map(|(k, _)| k)
        .collect();
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    let mut k = 0;
    while k < changes.len() {
        let start = changes[k].saturating_sub(CONTEXT);
        let mut last = changes[k];
        while k + 1 < changes.len() && changes[k + 1] <= last + 2 * CONTEXT + 1 {
            k += 1;
            last = changes[k];
        }
        k += 1;
        let end = (last + 1 + CONTEXT).min(ops.len());
        let hunk = &ops[start..end];
        let old_before = ops[..start]
            .iter()
            .filter(|o| !matches!(o, Op::Ins(_)))
            .count();
        let new_before = ops[..start]
            .iter()
            .filter(|o| !matches!(o, Op::Del(_)))
            .count();
        let old_n = hunk.iter().filter(|o| !matches!(o, Op::Ins(_))).count();
        let new_n = hunk.iter().filter(|o| !matches!(o, Op::Del(_))).count();
        let old_start = if old_n == 0 {
            old_before
        } else {
            old_before + 1
        };
        let new_start = if new_n == 0 {
            new_before
        } else {
            new_before + 1
        };
        out.push_str(&format!(
            "@@ -{old_start},{old_n} +{new_start},{new_n} @@\n"
        ));
        for op in hunk {
            match *op {
                Op::Equal(i, _) => push_line(&mut out, ' ', a[i]),
                Op::Del(i) => push_line(&mut out, '-', a[i]),
                Op::Ins(j) => push_line(&mut out, '+', b[j]),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn creation_and_deletion() {
        assert_eq!(
            unified("/dev/null", "b/x", "", "a\nb\n"),
            "--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+a\n+b\n"
        );
        assert_eq!(
            unified("a/x", "/dev/null", "a", ""),
            "--- a/x\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn distant_changes_make_two_hunks() {
        let old: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l2\n", "two\n").replace("l18\n", "");
        let d = unified("a", "b", &old, &new);
        assert_eq!(d.matches("@@ ").count(), 2, "{d}");
        assert!(
            d.contains("@@ -1,5 +1,5 @@\n l1\n-l2\n+two\n l3\n l4\n l5\n"),
            "{d}"
        );
        assert!(
            d.contains("@@ -15,6 +15,5 @@\n l15\n l16\n l17\n-l18\n l19\n l20\n"),
            "{d}"
        );
    }
}
