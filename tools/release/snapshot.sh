#!/usr/bin/env bash
# `make release-snapshot`: builds a whole release of the checked-out commit
# with GoReleaser, publishing nothing, then checks it:
#   - two builds, each from its own fresh clone at a different path, are
#     byte-identical (binaries, archives, SBOMs, checksums, the OCI image);
#   - checksums.txt verifies with sha256sum -c;
#   - ghgate-releasecheck: `ghgate version` of this machine's binary, each
#     archive's contents and SBOM, checksums.txt's signature and each
#     archive's signed provenance, the release's server.json (the MCP
#     registry's entry), and the OCI image's config, label and binary;
#   - the user's checks of docs/install.md: `ghgate-releasecheck verify`
#     and openssl on the signature pass, and both refuse a tampered archive
#     or signature.
# The release is signed with a throwaway key made here (a real release's
# key is $GHGATE_RELEASE_KEY, given to the build and never committed); both
# builds use it, and Ed25519 signatures are deterministic, so they match.
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

"$bin/ghgate-sign" keygen "$tmp/release-key.pem" "$tmp/ghgate-release.pub"
export GHGATE_RELEASE_KEY=$tmp/release-key.pem

build() { # build DIR: clone the commit into DIR, build a snapshot release and its image in DIR/dist
	git clone --quiet --no-local "$root" "$1"
	git -C "$1" checkout --quiet --detach "$commit"
	# The clone has no tools/release/bin (it is ignored); it runs these.
	ln -s "$bin" "$1/tools/release/bin"
	(cd "$1" && "$bin/goreleaser" release --snapshot --clean)
	"$bin/ghgate-image" -dist "$1/dist" -root "$1" -date "$date" -out "$1/dist/oci"
	# The registry entry beside the archives, as checksums.txt lists it.
	cp "$1/build/server.json" "$1/dist/server.json"
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
shopt -s nullglob
for f in checksums.txt checksums.txt.sig server.json *.tar.gz *.zip *.sbom.json *.intoto.jsonl */ghgate */ghgate.exe; do
	cmp "$f" "$second/dist/$f"
	n=$((n + 1))
done
shopt -u nullglob
diff -r "$first/dist/oci" "$second/dist/oci"
echo "identical: $n files (binaries, archives, SBOMs, provenance, checksums.txt and its signature, server.json) and the OCI layout ($(find oci -type f | wc -l) files)"

rm -rf "$root/dist"
cp -a "$first/dist" "$root/dist"
cd "$root/dist"

echo "== release-snapshot: sha256sum -c checksums.txt"
sha256sum -c checksums.txt

echo "== release-snapshot: ghgate-releasecheck"
cd "$root"
cp "$tmp/ghgate-release.pub" dist/ghgate-release.pub
"$bin/ghgate-releasecheck" -dist dist -date "$date" -oci dist/oci -pubkey dist/ghgate-release.pub

echo "== release-snapshot: a user's verification (docs/install.md), and tampering refused"
"$bin/ghgate-releasecheck" verify -pubkey dist/ghgate-release.pub -dir dist >/dev/null
base64 -d dist/checksums.txt.sig >"$tmp/checksums.sig.bin"
openssl pkeyutl -verify -pubin -inkey dist/ghgate-release.pub -rawin -in dist/checksums.txt -sigfile "$tmp/checksums.sig.bin"
archive=$(cd dist && ls ./*_linux_amd64.tar.gz | head -1)
# The provenance by hand, as docs/install.md gives it (jq and openssl).
(
	cd dist && A=$archive
	jq -r .payload "$A.intoto.jsonl" | base64 -d >"$tmp/statement.json"
	jq -r '.signatures[0].sig' "$A.intoto.jsonl" | base64 -d >"$tmp/statement.sig"
	t=application/vnd.in-toto+json
	{ printf 'DSSEv1 %d %s %d ' ${#t} "$t" "$(wc -c <"$tmp/statement.json")"; cat "$tmp/statement.json"; } >"$tmp/statement.pae"
	openssl pkeyutl -verify -pubin -inkey ghgate-release.pub -rawin -in "$tmp/statement.pae" -sigfile "$tmp/statement.sig"
	if [ "$(jq -r '.subject[0].digest.sha256' "$tmp/statement.json")" != "$(sha256sum "$A" | cut -d' ' -f1)" ]; then
		echo "release-snapshot: $A's provenance subject is not its sha256" >&2
		exit 1
	fi
	echo "provenance by hand: $A's DSSE signature verifies and its subject is its sha256"
)
tampered=$tmp/tampered
flip_first_digit() { # change the first hex digit of FILE
	if [ "$(head -c1 "$1")" = 0 ]; then sed -i '1s/^./1/' "$1"; else sed -i '1s/^./0/' "$1"; fi
}
refused() { # refused WHAT: the user's checks of $tampered must fail
	if "$bin/ghgate-releasecheck" verify -pubkey dist/ghgate-release.pub -dir "$tampered" 2>"$tmp/refusal"; then
		echo "release-snapshot: ghgate-releasecheck verify accepted $1" >&2
		exit 1
	fi
	echo "refused $1: $(cat "$tmp/refusal")"
}
rm -rf "$tampered" && cp -a dist "$tampered" && printf 'x' >>"$tampered/$archive"
refused "an archive with a byte appended"
rm -rf "$tampered" && cp -a dist "$tampered" && flip_first_digit "$tampered/checksums.txt"
refused "an edited checksums.txt"
if openssl pkeyutl -verify -pubin -inkey dist/ghgate-release.pub -rawin -in "$tampered/checksums.txt" -sigfile "$tmp/checksums.sig.bin" >/dev/null 2>&1; then
	echo "release-snapshot: openssl accepted an edited checksums.txt" >&2
	exit 1
fi
echo "refused by openssl too: an edited checksums.txt"
rm -rf "$tampered" && cp -a dist "$tampered"
"$bin/ghgate-sign" keygen "$tmp/other-key.pem" "$tmp/other.pub"
GHGATE_RELEASE_KEY=$tmp/other-key.pem "$bin/ghgate-sign" checksums "$tampered/checksums.txt" "$tampered/checksums.txt.sig"
refused "checksums.txt signed by another key"

echo "== release-snapshot: artifacts"
ls -l dist/ dist/oci dist/oci/blobs/sha256
