#!/bin/sh
# The version and commit a build is stamped with (the Makefile's -X main.version and
# -X main.commit). Usage: scripts/version.sh [version|commit].
#
# version: a tag vX.Y.Z on HEAD gives X.Y.Z; commits after the newest such tag give
# X.Y.Z-dev ("after release X.Y.Z"). Tags do not travel with every clone, so the
# VERSION file holds the release too: X.Y.Z on the commit that last changed it,
# X.Y.Z-dev on any later commit; it is used when no tag is found or the tag is older
# than that change. Uncommitted changes make it -dev too.
# commit: the short hash, with -dirty for uncommitted changes; "unknown" outside git.
set -eu
cd "$(dirname "$0")/.."
what=${1:-version}
ingit=false
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then ingit=true; fi
dirty=
if $ingit && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=-dirty; fi
if [ "$what" = commit ]; then
	if $ingit; then echo "$(git rev-parse --short=7 HEAD)$dirty"; else echo unknown; fi
	exit 0
fi
ver= dev=$dirty tag= rel=
if $ingit; then
	tag=$(git describe --tags --match 'v[0-9]*.[0-9]*.[0-9]*' --abbrev=0 2>/dev/null) || tag=
	if [ -f VERSION ]; then rel=$(git log -1 --format=%H -- VERSION 2>/dev/null) || rel=; fi
fi
# The newer of the two: a tag older than the VERSION file's last change gives way.
if [ -n "$tag" ] && [ -n "$rel" ] && [ "$(git rev-parse "$tag^{commit}")" != "$rel" ] &&
	git merge-base --is-ancestor "$tag" "$rel"; then
	tag=
fi
if [ -n "$tag" ]; then
	ver=${tag#v}
	if [ "$(git rev-list --count "$tag..HEAD")" != 0 ]; then dev=yes; fi
elif [ -f VERSION ]; then
	ver=$(tr -d ' \t\r\n' <VERSION)
	if $ingit && { [ -z "$rel" ] || [ "$(git rev-list --count "$rel..HEAD")" != 0 ]; }; then dev=yes; fi
fi
case $ver in
'') echo dev ;;
*) if [ -n "$dev" ]; then echo "$ver-dev"; else echo "$ver"; fi ;;
esac
