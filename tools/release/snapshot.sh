#!/usr/bin/env bash
# `make release-snapshot`: builds a whole release of the checked-out commit
# with GoReleaser, publishing nothing, then checks it:
#   - two builds, each from its own fresh clone at a different path, are
#     byte-identical (binaries, archives, SBOMs, checksums, the OCI image);
#   - checksums.txt verifies with sha256sum -c;
#   - ghgate-releasecheck: `ghgate version` of this machine's binary, each
#     archive's contents and SBOM, and the OCI image's config and binary.
# The release lands in dist/ (the image in dist/oci). It is built from
# clones, so it holds the commit and nothing else of the working tree; the
# clones have the checkout as their remote, which GoReleaser needs to read
# the git state.
#
# RELEASE_COLD_CACHE=1 gives the second build an empty Go build cache, so
# the comparison covers the compiler's output too, not only what GoReleaser
# assembles from it (many more minutes).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/tools/release/bin
commit=$(git rev-parse HEAD)

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "release-snapshot: uncommitted changes are not in the release; it is built from commit $commit" >&2
fi
# GoReleaser's .CommitDate, which the binaries print.
date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ "$commit")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # build DIR: clone the commit into DIR, build a snapshot release and its image in DIR/dist
	git clone --quiet --no-local "$root" "$1"
	git -C "$1" checkout --quiet --detach "$commit"
	# The clone has no tools/release/bin (it is ignored); it runs these.
	ln -s "$bin" "$1/tools/release/bin"
	(cd "$1" && "$bin/goreleaser" release --snapshot --clean)
	"$bin/ghgate-image" -dist "$1/dist" -root "$1" -date "$date" -out "$1/dist/oci"
}

echo "== release-snapshot: build $commit"
first=$tmp/first/ghgate
build "$first"

echo "== release-snapshot: second build, from another clone at another path"
second=$tmp/second/src/ghgate
if [ "${RELEASE_COLD_CACHE:-}" = 1 ]; then
	export GOCACHE=$tmp/gocache
fi
build "$second" >"$tmp/second-build.log" 2>&1 || { cat "$tmp/second-build.log" >&2; exit 1; }

echo "== release-snapshot: the two builds are byte-identical"
cd "$first/dist"
n=0
for f in checksums.txt *.tar.gz *.sbom.json */ghgate; do
	cmp "$f" "$second/dist/$f"
	n=$((n + 1))
done
diff -r "$first/dist/oci" "$second/dist/oci"
echo "identical: $n files (binaries, archives, SBOMs, checksums.txt) and the OCI layout ($(find oci -type f | wc -l) files)"

rm -rf "$root/dist"
cp -a "$first/dist" "$root/dist"
cd "$root/dist"

echo "== release-snapshot: sha256sum -c checksums.txt"
sha256sum -c checksums.txt

echo "== release-snapshot: ghgate-releasecheck"
cd "$root"
"$bin/ghgate-releasecheck" -dist dist -date "$date" -oci dist/oci

echo "== release-snapshot: artifacts"
ls -l dist/ dist/oci dist/oci/blobs/sha256
