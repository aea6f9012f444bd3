#!/usr/bin/env bash
# `make release-snapshot`: builds a whole release locally with GoReleaser,
# publishing nothing, then checks it:
#   - a second build, from a fresh clone of the same commit at another path,
#     is byte-identical (archives, SBOMs, checksums, the OCI image);
#   - checksums.txt verifies with sha256sum -c;
#   - ghgate-releasecheck: `ghgate version` of this machine's binary, each
#     archive's contents and SBOM, and the OCI image's config and binary.
# Everything lands in dist/ (the image in dist/oci). The tracked files must
# be committed: the second build is of the commit, not the working tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/tools/release/bin

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "release-snapshot: commit first; the reproducibility check rebuilds the commit from a clone:" >&2
	git status --short --untracked-files=no >&2
	exit 1
fi
# GoReleaser's .CommitDate, which the binaries print.
date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)

build() { # build DIR: a snapshot release of DIR into DIR/dist, and its image
	(cd "$1" && "$bin/goreleaser" release --snapshot --clean)
	"$bin/ghgate-image" -dist "$1/dist" -root "$1" -date "$date" -out "$1/dist/oci"
}

echo "== release-snapshot: build"
build "$root"

echo "== release-snapshot: second build, from a clone at another path"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone --quiet --no-local "$root" "$tmp/ghgate"
# The clone has no tools/release/bin (it is ignored); it runs these.
ln -s "$bin" "$tmp/ghgate/tools/release/bin"
build "$tmp/ghgate" >"$tmp/second-build.log" 2>&1 || { cat "$tmp/second-build.log" >&2; exit 1; }

echo "== release-snapshot: the two builds are byte-identical"
same=0
cd "$root/dist"
for f in checksums.txt *.tar.gz *.sbom.json */ghgate; do
	cmp "$f" "$tmp/ghgate/dist/$f"
	same=$((same + 1))
done
diff -r "$root/dist/oci" "$tmp/ghgate/dist/oci"
echo "identical: $same files and the OCI layout ($(find oci -type f | wc -l) files)"

echo "== release-snapshot: sha256sum -c checksums.txt"
sha256sum -c checksums.txt

echo "== release-snapshot: ghgate-releasecheck"
cd "$root"
"$bin/ghgate-releasecheck" -dist dist -date "$date" -oci dist/oci

echo "== release-snapshot: artifacts"
ls -l dist/ dist/oci dist/oci/blobs/sha256
