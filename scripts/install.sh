#!/bin/sh
# make install / make uninstall: every skampi binary that was built (bin/skampi,
# bin/skampi-mpich), the man pages (docs/man) and shell completions for bash, zsh and
# fish, written by the binary itself, under DESTDIR/PREFIX.
# Usage: scripts/install.sh install|uninstall DESTDIR PREFIX
#
# Nothing is built here: `sudo make install` must not compile as root into a user's
# tree, so the binaries are made first (make build) by whoever owns it.
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
	echo "usage: $0 install|uninstall DESTDIR PREFIX" >&2
	exit 2
fi
action=$1 root=$2$3
bindir=$root/bin
man1=$root/share/man/man1
suites=$root/share/skampi/suites
tunes=$root/share/skampi/tunes
bashdir=$root/share/bash-completion/completions
zshdir=$root/share/zsh/site-functions
fishdir=$root/share/fish/vendor_completions.d
names="skampi skampi-mpich"

case $action in
install)
	built=
	for b in $names; do
		if [ -x "bin/$b" ]; then built="$built $b"; fi
	done
	if [ -z "$built" ]; then
		echo "make install: nothing built: run make build (and make build MPI=mpich for MPICH's) as this tree's owner first" >&2
		exit 1
	fi
	install -d "$bindir" "$man1" "$bashdir" "$zshdir" "$fishdir"
	for b in $built; do
		install -m 755 "bin/$b" "$bindir/$b"
	done
	install -m 644 docs/man/*.1 "$man1"
	# The built-in suites and tune files, to copy and edit (the binary carries its own).
	install -d "$suites" "$tunes"
	install -m 644 inputs/builtin/*.toml families/*/*.toml "$suites" # a family keeps its own in its folder
	install -m 644 inputs/tunes/*.toml "$tunes"
	# The completions ask the binary itself (`skampi __complete`), by the name typed:
	# one script serves both binaries.
	gen=bin/${built# }
	gen=${gen%% *}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	"$gen" completion bash >"$tmp/bash"
	"$gen" completion zsh >"$tmp/zsh"
	"$gen" completion fish >"$tmp/fish"
	install -m 644 "$tmp/bash" "$bashdir/skampi"
	install -m 644 "$tmp/fish" "$fishdir/skampi.fish"
	if [ -x bin/skampi-mpich ]; then
		# bash-completion loads a command's file by its name; fish follows --wraps.
		echo 'complete -o default -F __start_skampi skampi-mpich' >>"$tmp/bash"
		install -m 644 "$tmp/bash" "$bashdir/skampi-mpich"
		echo 'complete -c skampi-mpich --wraps skampi' >"$tmp/fish-mpich"
		install -m 644 "$tmp/fish-mpich" "$fishdir/skampi-mpich.fish"
		sed -i -e '1s/^#compdef skampi$/#compdef skampi skampi-mpich/' \
			-e 's/^compdef _skampi skampi$/compdef _skampi skampi skampi-mpich/' "$tmp/zsh"
	fi
	install -m 644 "$tmp/zsh" "$zshdir/_skampi"
	echo "installed$built, $(ls docs/man/*.1 | wc -l) man pages, $(ls inputs/builtin/*.toml families/*/*.toml | wc -l) suites, $(ls inputs/tunes/*.toml | wc -l) tune files and completions under $root"
	;;
uninstall)
	for b in $names; do
		rm -f "$bindir/$b" "$bashdir/$b" "$fishdir/$b.fish"
	done
	rm -f "$zshdir/_skampi"
	rm -f "$man1/skampi.1" "$man1"/skampi-*.1
	for f in inputs/builtin/*.toml families/*/*.toml; do rm -f "$suites/${f##*/}"; done
	for f in inputs/tunes/*.toml; do rm -f "$tunes/${f##*/}"; done
	rmdir "$suites" "$tunes" "$root/share/skampi" 2>/dev/null || true
	echo "removed skampi from $root"
	;;
*)
	echo "usage: $0 install|uninstall DESTDIR PREFIX" >&2
	exit 2
	;;
esac
