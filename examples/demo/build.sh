#!/usr/bin/env bash
# Builds the demo repository: a small service whose agent documents went stale the usual ways
# (a renamed config module, a deleted queue, a copied setup section, eight handoff notes, a plan
# whose work shipped, one whose status is a judgement call). Usage: build.sh DIR
set -euo pipefail
dir=${1:?usage: build.sh DIR}
rm -rf "$dir"; mkdir -p "$dir"; cd "$dir"
git init -q -b main
git config user.email demo@example.com; git config user.name "Demo Dev"
commit() { GIT_AUTHOR_DATE="$1T10:00:00Z" GIT_COMMITTER_DATE="$1T10:00:00Z" git commit -qm "$2"; }

mkdir -p src docs/plans .claude/handoffs .claude/rules
cat > src/config.rs <<'EOF'
pub struct Config { pub port: u16 }
pub fn load_config() -> Config { Config { port: 8080 } }
EOF
cat > src/queue.rs <<'EOF'
pub fn enqueue(job: &str) { println!("{job}"); }
EOF
cat > src/main.rs <<'EOF'
mod config;
fn main() { let c = config::load_config(); println!("{}", c.port); }
EOF
cat > README.md <<'EOF'
# acme-jobs

A tiny job service.

## Install

Run `make setup` once to fetch the toolchain and the pinned dependencies, then run
`make test` before every push; CI runs exactly these two targets.

## Usage

`cargo run` starts the server on port 8080.
EOF
cat > CLAUDE.md <<'EOF'
# acme-jobs: notes for the agent

@docs/conventions.md

- Configuration is loaded by `load_config()` in `src/config.rs`; never read env vars elsewhere.
- Jobs go through [the queue module](src/queue.rs); see [architecture](docs/architecture.md#job-queue).
- Keep handlers small; put shared code in `src/`.
EOF
cat > docs/conventions.md <<'EOF'
# Conventions

- Errors are values; no `unwrap()` outside tests.
- Every public function has a doc comment.
EOF
cat > docs/architecture.md <<'EOF'
# Architecture

## Server

`src/main.rs` starts the server and reads the configuration.

## Jobs

Jobs are handed to the worker pool.
EOF
cat > docs/setup.md <<'EOF'
# Developer setup

Run `make setup` once to fetch the toolchain and the pinned dependencies, then run
`make test` before every push; CI runs exactly these two targets.

Ask in #acme-jobs if `make setup` fails.
EOF
cat > docs/plans/2026-06-search.md <<'EOF'
---
served_when_path: src/search.rs
---
# Plan: search endpoint

- [x] add `src/search.rs`
- [x] wire it into the router
- [x] document it

## Decisions

Search is a prefix match; full-text can come later.
EOF
cat > docs/plans/auth-rework.md <<'EOF'
# Plan: auth rework

Status: in progress

## Decisions

Tokens expire after one hour.

## Steps

- [x] rotate keys
- [ ] move sessions to Redis
EOF
for d in 01 04 08 12 15 19 22 26; do
  printf '# Handoff 2026-06-%s\n\nPicked up the queue work; next: tests.\n' "$d" > ".claude/handoffs/2026-06-$d-queue.md"
done
git add -A; commit 2026-06-01 "initial service and agent docs"

git mv src/config.rs src/settings.rs
sed -i 's/mod config;/mod settings;/; s/config::load_config/settings::load_config/' src/main.rs
git rm -q src/queue.rs
printf 'pub fn search(q: &str) -> bool { !q.is_empty() }\n' > src/search.rs
git add -A; commit 2026-07-01 "rename config to settings, drop the queue, add search"
