#!/bin/sh
# Builds the engine as it was at commit 20890f2 (before issue 18), speaking
# the engine-mode protocol, into target/old_engine/draughts_old_engine.
#
#   tools/old_engine/build.sh [COMMIT]
#
# It checks the commit out into a temporary worktree, copies
# tools/old_engine/engine.rs in as an example, builds it in release mode and
# removes the worktree.
set -eu
commit="${1:-20890f2}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'git -C "$repo" worktree remove --force "$tmp/tree" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$repo" worktree add --detach "$tmp/tree" "$commit" >/dev/null
cp "$repo/tools/old_engine/engine.rs" "$tmp/tree/examples/draughts_old_engine.rs"
CARGO_TARGET_DIR="$repo/target/old_engine/build" \
    cargo build --release --locked --manifest-path "$tmp/tree/Cargo.toml" --example draughts_old_engine
mkdir -p "$repo/target/old_engine"
cp "$repo/target/old_engine/build/release/examples/draughts_old_engine" "$repo/target/old_engine/"
echo "$repo/target/old_engine/draughts_old_engine"
