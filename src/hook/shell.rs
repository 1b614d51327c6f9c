//! The moves a Bash command makes, read from its text: `mv` and `git mv`, with the `cd`s before
//! them.
//!
//! Why parse at all, when the hook compares the tree before and after: the comparison says
//! *that* `src/a.rs` went away, not *where* it went. The command usually says so, and a fix the
//! agent can apply in the same turn is worth more than a complaint. Parsing is therefore only
//! ever a source of *candidate* new names: every name it yields is checked against the tree
//! after the call, so a command this reader misunderstands costs a missing fix, never a wrong
//! one. Anything it cannot read for certain (a variable, a glob, a command substitution, an
//! unknown `cd`) ends the reading: the moves after it are dropped, not guessed.

/// One `mv` or `git mv`, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The folders `cd` changed to before this command, in order (each relative to the one
    /// before, or absolute); empty when the command runs where the whole command started.
    pub cd: Vec<String>,
    /// The paths moved, as written (relative to the folder the command runs in, or absolute).
    pub sources: Vec<String>,
    /// Where they go, as written.
    pub dest: String,
    /// `Some(true)` when the destination is certainly a folder the sources go into (`-t DIR`, or
    /// several sources); `Some(false)` with `-T`; `None` when the tree after the call decides.
    pub into_dir: Option<bool>,
}

/// A word of the command, or the end of a simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A word after quote removal; `fixed` is false when it holds an expansion (`$`, a glob, a
    /// backtick, a leading `~`), whose value the text does not show.
    Word { text: String, fixed: bool },
    /// `;`, `&&`, `||`, `|`, `&`, a newline, `(` or `)`.
    Break,
}

/// Splits `command` into words and command breaks, the way a POSIX shell would for the simple
/// cases: quotes, backslashes, comments, redirections (dropped with their target).
fn tokens(command: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let chars: Vec<char> = command.chars().collect();
    let mut i = 0;
    let mut word = String::new();
    let mut in_word = false;
    let mut fixed = true;
    // Whether the next word is a redirection target, dropped.
    let mut redirect = false;
    let flush = |out: &mut Vec<Token>,
                 word: &mut String,
                 in_word: &mut bool,
                 fixed: &mut bool,
                 redirect: &mut bool| {
        if *in_word {
            if *redirect {
                *redirect = false;
            } else {
                // `[` and `[[` open a test, not a glob.
                let test = word == "[" || word == "[[";
                out.push(Token::Word {
                    text: std::mem::take(word),
                    fixed: *fixed || test,
                });
            }
        }
        word.clear();
        *in_word = false;
        *fixed = true;
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect),
            '\n' | ';' | '(' | ')' => {
                flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect);
                out.push(Token::Break);
                redirect = false;
            }
            '&' if chars.get(i + 1) == Some(&'>') => {
                // `&>file`: a redirection of both streams, not a break.
                flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect);
            }
            '&' | '|' => {
                flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect);
                out.push(Token::Break);
                redirect = false;
                if chars.get(i + 1) == Some(&c) {
                    i += 1;
                }
            }
            '>' | '<' => {
                // A redirection: `>f`, `2> f`, `&>f`, `>>f`, `<f`. The digits or `&` before it
                // belong to it; the target word after it is dropped.
                let fd = word.chars().all(|d| d.is_ascii_digit() || d == '&');
                if in_word && !fd {
                    flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect);
                }
                word.clear();
                in_word = false;
                fixed = true;
                while matches!(chars.get(i + 1), Some('>') | Some('<') | Some('&')) {
                    i += 1;
                }
                // `>&1` and friends name a descriptor, not a file.
                if chars[i] == '&' {
                    let mut j = i + 1;
                    while chars
                        .get(j)
                        .is_some_and(|d| d.is_ascii_digit() || *d == '-')
                    {
                        j += 1;
                    }
                    i = j;
                    continue;
                }
                redirect = true;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '\\' => {
                // A backslash-newline joins lines; any other escaped character is literal.
                if let Some(&n) = chars.get(i + 1).filter(|n| **n != '\n') {
                    in_word = true;
                    word.push(n);
                }
                i += 1;
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '\\' if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            word.push(chars[i + 1]);
                            i += 1;
                        }
                        '$' | '`' => {
                            fixed = false;
                            word.push(chars[i]);
                        }
                        ch => word.push(ch),
                    }
                    i += 1;
                }
            }
            '$' | '`' | '*' | '?' | '[' | '{' | '}' => {
                in_word = true;
                fixed = false;
                word.push(c);
            }
            '~' if !in_word => {
                in_word = true;
                fixed = false;
                word.push(c);
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    flush(&mut out, &mut word, &mut in_word, &mut fixed, &mut redirect);
    out
}

/// Words that may open a simple command without being its name.
const PREFIXES: &[&str] = &[
    "then", "do", "else", "elif", "if", "while", "until", "!", "time", "command", "nohup", "exec",
    "builtin",
];

/// The moves `command` makes, in order. Stops at the first thing it cannot follow (a `cd` to an
/// unknown folder, a move with an expansion in it), returning the moves before it.
///
/// ```
/// use hygiene::hook::shell::{moves, Move};
/// assert_eq!(
///     moves("cd docs && git mv -f old.md 'new name.md' 2>/dev/null"),
///     vec![Move {
///         cd: vec!["docs".into()],
///         sources: vec!["old.md".into()],
///         dest: "new name.md".into(),
///         into_dir: None,
///     }]
/// );
/// assert!(moves("for f in *.md; do mv \"$f\" x/; done").is_empty());
/// ```
pub fn moves(command: &str) -> Vec<Move> {
    let mut out = Vec::new();
    let mut cd: Vec<String> = Vec::new();
    let mut words: Vec<(String, bool)> = Vec::new();
    let mut toks = tokens(command);
    toks.push(Token::Break);
    for t in toks {
        match t {
            Token::Word { text, fixed } => words.push((text, fixed)),
            Token::Break => {
                let simple = std::mem::take(&mut words);
                if !simple_command(&simple, &mut cd, &mut out) {
                    return out;
                }
            }
        }
    }
    out
}

/// Reads one simple command. Returns false when the reading must stop.
fn simple_command(words: &[(String, bool)], cd: &mut Vec<String>, out: &mut Vec<Move>) -> bool {
    let mut i = 0;
    // Keywords, prefixes and `NAME=value` assignments before the command name.
    while let Some((w, _)) = words.get(i) {
        let assignment = w.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if PREFIXES.contains(&w.as_str()) || assignment {
            i += 1;
        } else {
            break;
        }
    }
    let Some((name, name_fixed)) = words.get(i) else {
        return true;
    };
    let args = &words[i + 1..];
    if !name_fixed {
        // `$EDITOR x`, `"$(...)"`: a command we cannot name may do anything, including `cd`.
        return false;
    }
    match name.as_str() {
        "cd" | "pushd" => {
            let dirs: Vec<&(String, bool)> =
                args.iter().filter(|(a, _)| !a.starts_with('-')).collect();
            match dirs.as_slice() {
                [(d, true)] => {
                    cd.push(d.clone());
                    true
                }
                _ => false,
            }
        }
        "popd" => false,
        "mv" => mv(args, cd, out),
        "git" => git(args, cd, out),
        _ => true,
    }
}

/// `mv [OPTION]... SOURCE... DEST`, `mv -t DIR SOURCE...`, `mv -T SOURCE DEST`.
fn mv(args: &[(String, bool)], cd: &[String], out: &mut Vec<Move>) -> bool {
    let mut operands: Vec<&(String, bool)> = Vec::new();
    let mut target: Option<String> = None;
    let mut no_target = false;
    let mut options = true;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let w = a.0.as_str();
        if options && w == "--" {
            options = false;
        } else if options && w.starts_with("--") {
            if let Some(t) = w.strip_prefix("--target-directory=") {
                target = Some(t.to_string());
            } else if w == "--target-directory" {
                target = it.next().map(|t| t.0.clone());
            } else if w == "--no-target-directory" {
                no_target = true;
            } else if w == "--suffix" {
                it.next();
            }
        } else if options && w.starts_with('-') && w.len() > 1 {
            // Short options, possibly clustered; `-t` and `-S` take a value.
            let flags: Vec<char> = w[1..].chars().collect();
            for (k, f) in flags.iter().enumerate() {
                match f {
                    'T' => no_target = true,
                    't' | 'S' => {
                        let rest: String = flags[k + 1..].iter().collect();
                        let value = if rest.is_empty() {
                            it.next().map(|t| t.0.clone())
                        } else {
                            Some(rest)
                        };
                        if *f == 't' {
                            target = value;
                        }
                        break;
                    }
                    _ => {}
                }
            }
        } else {
            operands.push(a);
        }
    }
    push_move(operands, target, no_target, cd, out)
}

/// `git [-C DIR] mv [-f] [-k] [-n] [-v] SOURCE... DEST`. Other git commands move nothing the
/// hook needs a name for (`git rm` deletes; the tree comparison sees it).
fn git(args: &[(String, bool)], cd: &[String], out: &mut Vec<Move>) -> bool {
    let mut cd = cd.to_vec();
    let mut i = 0;
    while let Some((w, fixed)) = args.get(i) {
        match w.as_str() {
            "-C" => {
                match args.get(i + 1) {
                    Some((d, true)) => cd.push(d.clone()),
                    _ => return false,
                }
                i += 2;
            }
            "-c" => i += 2,
            w if w.starts_with("--git-dir") || w.starts_with("--work-tree") => return true,
            w if w.starts_with('-') => i += 1,
            "mv" if *fixed => {
                let mut operands = Vec::new();
                let mut options = true;
                for a in &args[i + 1..] {
                    if options && a.0 == "--" {
                        options = false;
                    } else if options && a.0.starts_with('-') && a.0.len() > 1 {
                        continue;
                    } else {
                        operands.push(a);
                    }
                }
                return push_move(operands, None, false, &cd, out);
            }
            _ => return true,
        }
    }
    true
}

fn push_move(
    operands: Vec<&(String, bool)>,
    target: Option<String>,
    no_target: bool,
    cd: &[String],
    out: &mut Vec<Move>,
) -> bool {
    if operands.iter().any(|(_, fixed)| !fixed) {
        return false;
    }
    let mut names: Vec<String> = operands.into_iter().map(|(w, _)| w.clone()).collect();
    let (sources, dest, into_dir) = match target {
        Some(t) => (names, t, Some(true)),
        None => {
            if names.len() < 2 {
                return true;
            }
            let dest = names.pop().unwrap_or_default();
            let into = if no_target {
                Some(false)
            } else if names.len() > 1 {
                Some(true)
            } else {
                None
            };
            (names, dest, into)
        }
    };
    if sources.is_empty() || dest.is_empty() {
        return true;
    }
    out.push(Move {
        cd: cd.to_vec(),
        sources,
        dest,
        into_dir,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(cmd: &str) -> (Vec<String>, Vec<String>, String, Option<bool>) {
        let m = moves(cmd);
        assert_eq!(m.len(), 1, "{cmd}: {m:?}");
        let m = m.into_iter().next().unwrap();
        (m.cd, m.sources, m.dest, m.into_dir)
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn plain_and_git_moves() {
        assert_eq!(
            one("git mv src/a.rs src/b.rs"),
            (s(&[]), s(&["src/a.rs"]), "src/b.rs".into(), None)
        );
        assert_eq!(
            one("mv -v docs/old docs/new"),
            (s(&[]), s(&["docs/old"]), "docs/new".into(), None)
        );
        assert_eq!(
            one("mv a.md b.md docs/"),
            (s(&[]), s(&["a.md", "b.md"]), "docs/".into(), Some(true))
        );
        assert_eq!(
            one("mv -t docs a.md"),
            (s(&[]), s(&["a.md"]), "docs".into(), Some(true))
        );
        assert_eq!(
            one("mv --target-directory=docs a.md"),
            (s(&[]), s(&["a.md"]), "docs".into(), Some(true))
        );
        assert_eq!(
            one("mv -Tf a b"),
            (s(&[]), s(&["a"]), "b".into(), Some(false))
        );
        assert_eq!(
            one("mv -S .bak -- -odd.md b.md"),
            (s(&[]), s(&["-odd.md"]), "b.md".into(), None)
        );
        assert_eq!(
            one("git -C sub -c core.x=1 mv -k x.md y.md"),
            (s(&["sub"]), s(&["x.md"]), "y.md".into(), None)
        );
    }

    #[test]
    fn compound_commands_keep_their_cds() {
        let m = moves("cd /r/docs && mkdir -p new; mv 'a b.md' new/ && cd .. && git mv x y || echo failed | tee log");
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[0].cd, s(&["/r/docs"]));
        assert_eq!(m[0].sources, s(&["a b.md"]));
        assert_eq!(m[1].cd, s(&["/r/docs", ".."]));
        assert_eq!(m[1].dest, "y");
        let m = moves("if true; then\n  FOO=1 mv a \\\n    b # move it\nfi");
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].sources.clone(), m[0].dest.clone()),
            (s(&["a"]), "b".into())
        );
    }

    #[test]
    fn redirections_are_not_operands() {
        assert_eq!(
            one("mv a b 2>&1 >/dev/null"),
            (s(&[]), s(&["a"]), "b".into(), None)
        );
        assert_eq!(
            one("mv a b> out.txt"),
            (s(&[]), s(&["a"]), "b".into(), None)
        );
        assert_eq!(one("mv a b &>log"), (s(&[]), s(&["a"]), "b".into(), None));
        assert_eq!(one("mv &>log a b"), (s(&[]), s(&["a"]), "b".into(), None));
        assert_eq!(
            one("[ -f a ] && mv a b"),
            (s(&[]), s(&["a"]), "b".into(), None)
        );
    }

    #[test]
    fn what_cannot_be_read_stops_the_reading() {
        for cmd in [
            "mv $A b",
            "mv a \"$B\"",
            "mv *.md docs/",
            "mv ~/x y",
            "mv `ls` y",
            "cd $DIR && mv a b",
            "cd && mv a b",
            "popd; mv a b",
            "$CMD; mv a b",
        ] {
            assert!(moves(cmd).is_empty(), "{cmd}: {:?}", moves(cmd));
        }
        // Moves before the unreadable part are kept.
        assert_eq!(moves("mv a b; mv $X c").len(), 1);
        // Commands that move nothing are not moves.
        for cmd in [
            "git rm -r docs",
            "rm -rf docs/old",
            "git commit -m 'mv a b'",
            "echo mv a b",
            "mv a",
            "",
        ] {
            assert!(moves(cmd).is_empty(), "{cmd}");
        }
    }

    #[test]
    fn never_panics_on_odd_text() {
        for cmd in [
            "'", "\"", "\\", ">", "2>&", "mv -t", "git -C", "mv -S", "((", "&&||;;", "mv 'a", "é>ü",
        ] {
            let _ = moves(cmd);
        }
    }
}
