#!/usr/bin/env bash
# Provision a host for the ghgate credential broker. Run as root; safe to run
# again (it only creates what is missing and resets modes and owners).
#
#   provision.sh                    the service user, the bridge group, the
#                                   directories, the config and secrets files
#                                   (when absent) and the systemd unit
#   provision.sh --agent-user NAME  add the agent user NAME to the bridge group
#                                   (and nothing else)
#
# Overridable through the environment (the tests use a scratch root and
# unique names):
#   GHGATE_ROOT            prefix for every file path (default: empty, i.e. /)
#   GHGATE_USER            service user (default ghgate)
#   GHGATE_GROUP           the service user's own group (default: GHGATE_USER)
#   GHGATE_CLIENTS_GROUP   bridge group whose members may open the socket
#                          (default ghgate-clients)
#   GHGATE_UNIT_DIR        where the unit goes (default $GHGATE_ROOT/etc/systemd/system)
set -euo pipefail

ROOT="${GHGATE_ROOT:-}"
SVC_USER="${GHGATE_USER:-ghgate}"
SVC_GROUP="${GHGATE_GROUP:-$SVC_USER}"
CLIENTS_GROUP="${GHGATE_CLIENTS_GROUP:-ghgate-clients}"
UNIT_DIR="${GHGATE_UNIT_DIR:-$ROOT/etc/systemd/system}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() { echo "provision: $*" >&2; exit 1; }
say() { echo "provision: $*"; }

usage() {
	sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

agent_user=""
while [ $# -gt 0 ]; do
	case "$1" in
	--agent-user)
		[ $# -ge 2 ] || die "--agent-user needs a user name"
		agent_user="$2"
		shift 2
		;;
	--agent-user=*)
		agent_user="${1#--agent-user=}"
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown argument: $1 (see --help)" ;;
	esac
done

[ "$(id -u)" -eq 0 ] || die "must be run as root"

nologin_shell() {
	local s
	for s in /usr/sbin/nologin /sbin/nologin /usr/bin/false /bin/false; do
		if [ -x "$s" ]; then
			echo "$s"
			return
		fi
	done
	echo /bin/false
}

# --agent-user: only add the agent to the bridge group. Everything else about
# the agent (no sudo, not in the service group, not in docker) is checked by
# `ghgate doctor --agent-user`, not changed here.
if [ -n "$agent_user" ]; then
	getent passwd "$agent_user" >/dev/null || die "no such user: $agent_user"
	getent group "$CLIENTS_GROUP" >/dev/null || die "group $CLIENTS_GROUP does not exist: run provision.sh without --agent-user first"
	[ "$agent_user" != "$SVC_USER" ] || die "the agent must not be the service user"
	if id -nG "$agent_user" | tr ' ' '\n' | grep -qxF "$CLIENTS_GROUP"; then
		say "$agent_user is already in $CLIENTS_GROUP"
	else
		usermod -a -G "$CLIENTS_GROUP" "$agent_user"
		say "added $agent_user to $CLIENTS_GROUP (takes effect at the agent's next login)"
	fi
	if id -nG "$agent_user" | tr ' ' '\n' | grep -qxF "$SVC_GROUP"; then
		echo "provision: WARNING: $agent_user is in $SVC_GROUP and may read the broker's files; remove it: gpasswd -d $agent_user $SVC_GROUP" >&2
	fi
	exit 0
fi

# Accounts. The service user is a system user with no login shell and no
# home directory; its own group holds the state, logs and secrets.
if ! getent group "$SVC_GROUP" >/dev/null; then
	groupadd --system "$SVC_GROUP"
	say "created group $SVC_GROUP"
fi
if ! getent passwd "$SVC_USER" >/dev/null; then
	useradd --system --gid "$SVC_GROUP" --no-create-home --home-dir /nonexistent \
		--shell "$(nologin_shell)" --comment "ghgate credential broker" "$SVC_USER"
	say "created user $SVC_USER"
fi
if ! getent group "$CLIENTS_GROUP" >/dev/null; then
	groupadd --system "$CLIENTS_GROUP"
	say "created group $CLIENTS_GROUP"
fi
# The broker gives the socket the bridge group, which needs membership. The
# unit adds it with SupplementaryGroups=; /etc/group carries it too so the
# broker works when started another way (and so doctor sees it).
if ! id -nG "$SVC_USER" | tr ' ' '\n' | grep -qxF "$CLIENTS_GROUP"; then
	usermod -a -G "$CLIENTS_GROUP" "$SVC_USER"
	say "added $SVC_USER to $CLIENTS_GROUP"
fi

# Directories and modes. /etc/ghgate: root writes, the service reads.
install -d -m 0750 -o root -g "$SVC_GROUP" "$ROOT/etc/ghgate"
install -d -m 0750 -o "$SVC_USER" -g "$SVC_GROUP" "$ROOT/var/lib/ghgate"
# The example's sync_root: only the service writes there (the broker
# refuses a sync_root anyone else can change).
install -d -m 0700 -o "$SVC_USER" -g "$SVC_GROUP" "$ROOT/var/lib/ghgate/mirrors"
install -d -m 0750 -o "$SVC_USER" -g "$SVC_GROUP" "$ROOT/var/log/ghgate"
# systemd's credential store (LoadCredential=NAME reads /etc/credstore/NAME):
# root only, systemd copies each credential for the service.
install -d -m 0700 -o root -g root "$ROOT/etc/credstore"

if [ ! -e "$ROOT/etc/ghgate/broker.toml" ]; then
	install -m 0640 -o root -g "$SVC_GROUP" "$HERE/broker.example.toml" "$ROOT/etc/ghgate/broker.toml"
	say "installed $ROOT/etc/ghgate/broker.toml from the example: edit it"
fi
chown root:"$SVC_GROUP" "$ROOT/etc/ghgate/broker.toml"
chmod 0640 "$ROOT/etc/ghgate/broker.toml"

# The secrets file: root writes it, the service reads it through its group.
# Never group- or world-readable beyond that.
secrets="$ROOT/etc/ghgate/secrets.toml"
if [ ! -e "$secrets" ]; then
	(umask 0077 && : >"$secrets")
	say "created an empty $secrets: put the tokens there (see deploy/secrets.example.toml)"
fi
chown root:"$SVC_GROUP" "$secrets"
chmod 0640 "$secrets"

# The unit, with the account names substituted when they were overridden.
install -d -m 0755 "$UNIT_DIR"
unit_tmp="$(mktemp)"
trap 'rm -f "$unit_tmp"' EXIT
sed -e "s/^User=.*/User=$SVC_USER/" \
	-e "s/^Group=.*/Group=$SVC_GROUP/" \
	-e "s/^SupplementaryGroups=.*/SupplementaryGroups=$CLIENTS_GROUP/" \
	"$HERE/ghgate-broker.service" >"$unit_tmp"
install -m 0644 -o root -g root "$unit_tmp" "$UNIT_DIR/ghgate-broker.service"
say "installed $UNIT_DIR/ghgate-broker.service"

# Reload systemd only when it runs this host and the unit went to the real
# root (not a scratch root).
if [ -z "$ROOT" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
	systemctl daemon-reload
	say "systemd reloaded; start with: systemctl enable --now ghgate-broker"
fi

say "done. Next: add agents with --agent-user NAME, then run: ghgate doctor --config $ROOT/etc/ghgate/broker.toml"
