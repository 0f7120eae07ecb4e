# SPDX-License-Identifier: BSD-2-Clause
# tests/sync/sshd.sh: an ssh server of our own on 127.0.0.1, for the tests
# (and bench/run's ssh cells) that need a real remote shell. Source after
# tests/lib.sh; everything lives in $1 (a directory of its own):
#   sshd_start DIR   start sshd (Debian's openssh-server) with a new host key
#                    and a new user key on a free port; sets SSH_RSH, the -e
#                    command that logs into it; returns 1 (said on stderr)
#                    where it cannot run
#   sshd_stop        stop it
sshd_start() {
	_d=$1
	_sshd=$(command -v sshd || echo /usr/sbin/sshd)
	[ -x "$_sshd" ] || { echo "no sshd (openssh-server)" >&2; return 1; }
	command -v ssh-keygen >/dev/null && command -v ssh >/dev/null ||
		{ echo "no ssh or ssh-keygen (openssh-client)" >&2; return 1; }
	mkdir -p "$_d" && chmod 700 "$_d" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$_d/host" </dev/null >/dev/null &&
		ssh-keygen -q -t ed25519 -N '' -f "$_d/user" </dev/null >/dev/null || return 1
	cp "$_d/user.pub" "$_d/authorized_keys"
	# privilege separation wants its directory, when run as root
	[ "$(id -u)" != 0 ] || mkdir -p /run/sshd
	# the far end runs the build's binaries from our PATH, and they find the
	# build's libsweep by LD_LIBRARY_PATH (tests/uninstalled.sh)
	for _try in 1 2 3 4 5; do
		_port=$(( 20000 + ($$ * 7 + _try * 131) % 30000 ))
		cat > "$_d/config" <<CONF
Port $_port
ListenAddress 127.0.0.1
HostKey $_d/host
AuthorizedKeysFile $_d/authorized_keys
PidFile $_d/pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AcceptEnv SWEEP_*
SetEnv PATH=$PATH${LD_LIBRARY_PATH:+ LD_LIBRARY_PATH=$LD_LIBRARY_PATH}
CONF
		"$_sshd" -f "$_d/config" -E "$_d/log" 2>>"$_d/log" || continue
		SSH_RSH="ssh -p $_port -i $_d/user -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
		for _wait in 1 2 3 4 5 6 7 8 9 10; do
			$SSH_RSH 127.0.0.1 true </dev/null 2>/dev/null && return 0
			sleep 0.3
		done
		sshd_stop
	done
	echo "sshd would not start or let us in: $(tail -3 "$_d/log" 2>/dev/null)" >&2
	return 1
}

sshd_stop() {
	[ -f "$_d/pid" ] && kill "$(cat "$_d/pid")" 2>/dev/null
	rm -f "$_d/pid"
}
