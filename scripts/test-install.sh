#!/bin/bash
# make install and make uninstall into a temporary DESTDIR, checked: every built binary
# runs from there (--version), man reads an installed page, the completion scripts are
# there and bash takes its own, and uninstall leaves no file behind. Needs no root.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
prefix=/opt/skampi
root=$dest$prefix
fail() { echo "test-install: $*" >&2; exit 1; }

make --no-print-directory install DESTDIR="$dest" PREFIX="$prefix"
n=0
for b in skampi skampi-mpich; do
	[ -x "bin/$b" ] || continue
	n=$((n + 1))
	out=$("$root/bin/$b" --version) || fail "$b --version failed"
	grep -qE '^skampi [0-9]+\.[0-9]+\.[0-9]+(-dev)? \(commit [0-9a-f]{7}' <<<"$out" ||
		fail "$b --version says: $out"
	[ -s "$root/share/bash-completion/completions/$b" ] || fail "no bash completion for $b"
	# bash takes the script, and it completes the command under its own name.
	bash -c "source '$root/share/bash-completion/completions/$b' && complete -p $b" >/dev/null ||
		fail "bash does not take the completion of $b"
done
[ "$n" -gt 0 ] || fail "nothing was built"
[ -s "$root/share/zsh/site-functions/_skampi" ] || fail "no zsh completion"
head -1 "$root/share/zsh/site-functions/_skampi" | grep -q '^#compdef skampi' || fail "zsh completion without #compdef"
[ -s "$root/share/fish/vendor_completions.d/skampi.fish" ] || fail "no fish completion"
pages=$(ls "$root"/share/man/man1/*.1 | wc -l)
[ "$pages" -eq "$(ls docs/man/*.1 | wc -l)" ] || fail "$pages man pages installed"
if command -v man >/dev/null; then
	page=$(MANWIDTH=80 man -l -P cat "$root/share/man/man1/skampi-run.1" 2>/dev/null) || true
	grep -q 'skampi-run' <<<"$page" || fail "man cannot read the installed skampi-run.1"
else
	grep -q '^\.TH "SKAMPI"' "$root/share/man/man1/skampi-run.1" || fail "skampi-run.1 is not a man page"
fi
for f in inputs/builtin/*.toml families/*/*.toml; do
	cmp -s "$f" "$root/share/skampi/suites/${f##*/}" || fail "suite ${f##*/} not installed"
done
for f in inputs/tunes/*.toml; do
	cmp -s "$f" "$root/share/skampi/tunes/${f##*/}" || fail "tune file ${f##*/} not installed"
done
"$root/bin/skampi" check -i "$root/share/skampi/suites/pt2pt.toml" >/dev/null || fail "the installed pt2pt.toml does not check"
make --no-print-directory uninstall DESTDIR="$dest" PREFIX="$prefix"
left=$(find "$dest" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
echo "test-install: ok ($n binaries, $pages man pages, the suites and tune files, completions; uninstall clean)"
