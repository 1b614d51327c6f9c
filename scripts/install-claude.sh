#!/usr/bin/env bash
# Installs the Claude Code client pinned for the end-to-end test into its cache folder, the
# same place tests/plugin.rs looks (and installs into itself when it is missing). Run it in CI
# before `cargo test` to see the install's own progress and errors.
set -euo pipefail
version=2.1.332
dir="${HYGIENE_E2E_CACHE:-$HOME/.cache/hygiene-e2e}/claude-code-$version"
if [ -x "$dir/node_modules/.bin/claude" ]; then
  echo "claude-code $version already in $dir"
  exit 0
fi
command -v npm >/dev/null || { echo "install-claude: npm not found; install Node.js 20+ and retry" >&2; exit 2; }
mkdir -p "$dir"
timeout 900 npm install --no-audit --no-fund --prefix "$dir" "@anthropic-ai/claude-code@$version"
"$dir/node_modules/.bin/claude" --version
