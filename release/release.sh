#!/usr/bin/env bash
# The release's names and manifest, computed in one place from release/targets. The release
# workflow (.github/workflows/release.yml) runs each step below, and tests/install.rs runs the
# same steps as a dry run; bin/hygiene reads release/targets and release/SHA256SUMS itself.
#
#   release.sh plan              `version=V` and `matrix=JSON` lines for $GITHUB_OUTPUT; fails
#                                unless Cargo.toml, plugin.json and marketplace.json agree on V
#   release.sh asset TARGET      the asset name of TARGET: hygiene-V-TARGET[.exe]
#   release.sh stage TARGET DIR  copies the built target/TARGET/release/hygiene[.exe] to
#                                DIR/ASSET after checking that it runs (and, on Linux, is static)
#   release.sh manifest DIR      prints the manifest, `SHA256  ASSET` per target (the format
#                                `sha256sum -c` reads); fails unless DIR holds exactly one asset
#                                per target and nothing else
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
  echo "release.sh: $*" >&2
  exit 1
}

# The `version` of a JSON file's first "version" key (plugin.json, marketplace.json).
json_version() {
  sed -n 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$1" | head -n 1
}

version() {
  local cargo plugin market
  cargo="$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
  plugin="$(json_version "$root/.claude-plugin/plugin.json")"
  market="$(json_version "$root/.claude-plugin/marketplace.json")"
  [ -n "$cargo" ] || die "no version in Cargo.toml"
  if [ "$cargo" != "$plugin" ] || [ "$cargo" != "$market" ]; then
    die "versions disagree: Cargo.toml $cargo, plugin.json ${plugin:-none}, marketplace.json ${market:-none}"
  fi
  printf '%s\n' "$cargo"
}

# `TARGET RUNNER` per line of release/targets.
targets() {
  local target runner rest
  while read -r target _ _ runner rest; do
    case "$target" in '' | '#'*) continue ;; esac
    if [ -z "$runner" ] || [ -n "$rest" ]; then
      die "release/targets: the line of $target needs exactly four columns"
    fi
    printf '%s %s\n' "$target" "$runner"
  done <"$root/release/targets"
}

asset() {
  local suffix=""
  case "$1" in *windows*) suffix=".exe" ;; esac
  printf 'hygiene-%s-%s%s\n' "$(version)" "$1" "$suffix"
}

known_target() {
  targets | cut -d' ' -f1 | grep -qxF -- "$1" || die "$1 is not in release/targets"
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum -b "$1" | cut -d' ' -f1
  else
    shasum -a 256 -b "$1" | cut -d' ' -f1
  fi
}

plan() {
  local v target runner sep="" matrix=""
  v="$(version)"
  while read -r target runner; do
    matrix="$matrix$sep{\"target\":\"$target\",\"runner\":\"$runner\"}"
    sep=","
  done < <(targets)
  [ -n "$matrix" ] || die "release/targets lists no target"
  printf 'version=%s\n' "$v"
  printf 'matrix={"include":[%s]}\n' "$matrix"
}

stage() {
  local target="$1" dir="$2" exe="" built name out
  known_target "$target"
  case "$target" in *windows*) exe=".exe" ;; esac
  built="$root/target/$target/release/hygiene$exe"
  [ -f "$built" ] || die "no $built; run: cargo build --release --locked --target $target"
  out="$("$built" --version)" || die "$built does not run"
  [ "$out" = "hygiene $(version)" ] || die "$built --version says '$out', not 'hygiene $(version)'"
  case "$target" in
  *linux*)
    file "$built" | grep -Eq 'statically linked|static-pie linked' ||
      die "$built is not statically linked: $(file -b "$built")"
    ;;
  esac
  name="$(asset "$target")"
  mkdir -p "$dir"
  cp "$built" "$dir/$name"
  echo "$dir/$name"
}

manifest() {
  local dir="$1" target runner name f want=" " lines=""
  [ -d "$dir" ] || die "no folder $dir"
  while read -r target runner; do
    name="$(asset "$target")"
    [ -f "$dir/$name" ] || die "$dir has no $name (the $target build)"
    lines="$lines$(sha256 "$dir/$name")  $name"$'\n'
    want="$want$name "
  done < <(targets)
  for f in "$dir"/*; do
    case "$want" in *" $(basename "$f") "*) ;; *) die "$dir holds $(basename "$f"), which no target names" ;; esac
  done
  printf '%s' "$lines"
}

case "${1:-}" in
plan) plan ;;
asset) [ $# -eq 2 ] || die "usage: release.sh asset TARGET"; known_target "$2"; asset "$2" ;;
stage) [ $# -eq 3 ] || die "usage: release.sh stage TARGET DIR"; stage "$2" "$3" ;;
manifest) [ $# -eq 2 ] || die "usage: release.sh manifest DIR"; manifest "$2" ;;
*) die "usage: release.sh plan | asset TARGET | stage TARGET DIR | manifest DIR" ;;
esac
