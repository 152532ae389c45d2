# Sourced by identity.sh and instructions.sh: a scratch folder and a
# baseline built from another commit in a temporary `git worktree`, both
# removed on every exit (an interrupt included).
#
#   TOOL=name; . "$(dirname "$0")/baseline-worktree.sh"
#   addBaselineWorktree REF
#   baseline=$(buildAt "$worktree" trigsim -c release) || exit 2
#
# Sets `root` (the checkout) and `work` (the scratch folder); `addBaselineWorktree
# REF` checks REF out under `work` and sets `worktree` to its folder (not in a
# subshell: the clean-up reads it); `buildAt FOLDER PRODUCT [SWIFT BUILD OPTIONS]`
# builds PRODUCT there and prints the binary's path. Each failure says why on
# standard error and exits 2.

root=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel) || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/trigsim-$TOOL.XXXXXX") || exit 2
worktree=""
cleanUp() {
  if [ -n "$worktree" ]; then
    git -C "$root" worktree remove --force "$worktree" >/dev/null 2>&1
    git -C "$root" worktree prune >/dev/null 2>&1
  fi
  rm -rf "$work"
}
trap cleanUp EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Checks REF ($1) out in a worktree under `work` and sets `worktree` to its folder.
addBaselineWorktree() {
  local commit
  commit=$(git -C "$root" rev-parse --verify --quiet "$1^{commit}") || { echo "$TOOL.sh: '$1' is not a commit" >&2; exit 2; }
  worktree="$work/baseline"
  git -C "$root" worktree add --detach --quiet "$worktree" "$commit" || exit 2
}

# Builds product $2 of the package at $1 with the options after them; prints the binary's path.
buildAt() {
  local folder=$1 product=$2
  shift 2
  echo "$TOOL.sh: building $product in $folder ${*:-(debug)}" >&2
  swift build "$@" --package-path "$folder" --product "$product" >&2 || { echo "$TOOL.sh: the build of $product in $folder failed" >&2; return 2; }
  echo "$(swift build "$@" --package-path "$folder" --show-bin-path)/$product"
}
